CREATE TABLE "check_callback_inbox" (
	"customer_id" integer NOT NULL,
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "check_callback_inbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_activity_id" integer NOT NULL,
	"provider" varchar(20) NOT NULL,
	"event_id" varchar(200) NOT NULL,
	"body" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"outcome" varchar(20),
	"error" varchar(300) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "check_callback_inbox_event" ON "check_callback_inbox" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "check_callback_inbox_pending" ON "check_callback_inbox" USING btree ("case_activity_id","id") WHERE "check_callback_inbox"."applied_at" is null;--> statement-breakpoint
CREATE INDEX "check_callback_inbox_pending_customer" ON "check_callback_inbox" USING btree ("customer_id","id") WHERE "check_callback_inbox"."applied_at" is null;