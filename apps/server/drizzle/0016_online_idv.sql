CREATE TABLE "case_online_idv" (
	"customer_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"provider" varchar(20) NOT NULL,
	"session" varchar(100) NOT NULL,
	"session_url" varchar(500) NOT NULL,
	"status" varchar(20) DEFAULT 'in-progress' NOT NULL,
	"ibv_verified" boolean DEFAULT false NOT NULL,
	"ibv_session" varchar(100),
	"manual_idv_approved" boolean DEFAULT false NOT NULL,
	"id_profile" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_online_idv_customer_id_case_id_pk" PRIMARY KEY("customer_id","case_id")
);
--> statement-breakpoint
ALTER TABLE "case_online_idv" ADD CONSTRAINT "case_online_idv_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_online_idv" ADD CONSTRAINT "case_online_idv_case_fk" FOREIGN KEY ("customer_id","case_id") REFERENCES "public"."cases"("customer_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "case_online_idv_session_unique" ON "case_online_idv" USING btree ("session");