ALTER TABLE "payment_intents" ALTER COLUMN "case_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_intents" ALTER COLUMN "case_activity_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "case_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "case_activity_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "purpose" varchar(30) DEFAULT 'top_up' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "purpose_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_purpose_idx" ON "payment_intents" USING btree ("customer_id","purpose","purpose_id");