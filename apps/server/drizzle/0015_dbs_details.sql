CREATE TABLE "case_dbs_details" (
	"customer_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"idv_option" varchar(20) DEFAULT '' NOT NULL,
	"video_call_date" date,
	"in_person_expected_date" date,
	"discrepancy_notes" varchar(400) DEFAULT '' NOT NULL,
	"state" varchar(20) DEFAULT 'pending' NOT NULL,
	"verified_by" varchar(200),
	"verified_at" timestamp with time zone,
	"countersigned_by" varchar(200),
	"countersigned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_dbs_details_customer_id_case_id_pk" PRIMARY KEY("customer_id","case_id")
);
--> statement-breakpoint
CREATE TABLE "case_rtw_details" (
	"customer_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"route" varchar(20) DEFAULT '' NOT NULL,
	"share_code" varchar(9) DEFAULT '' NOT NULL,
	"verification_method_display" varchar(100) DEFAULT '' NOT NULL,
	"checked_by" varchar(200),
	"checked_at" timestamp with time zone,
	"state_display" varchar(100) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_rtw_details_customer_id_case_id_pk" PRIMARY KEY("customer_id","case_id")
);
--> statement-breakpoint
ALTER TABLE "case_dbs_details" ADD CONSTRAINT "case_dbs_details_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_dbs_details" ADD CONSTRAINT "case_dbs_details_case_fk" FOREIGN KEY ("customer_id","case_id") REFERENCES "public"."cases"("customer_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_rtw_details" ADD CONSTRAINT "case_rtw_details_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_rtw_details" ADD CONSTRAINT "case_rtw_details_case_fk" FOREIGN KEY ("customer_id","case_id") REFERENCES "public"."cases"("customer_id","id") ON DELETE cascade ON UPDATE no action;