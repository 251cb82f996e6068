ALTER TABLE "case_activities" ADD COLUMN "claimed_by_id" integer;--> statement-breakpoint
ALTER TABLE "case_activities" ADD COLUMN "claimed_by_name" varchar(300) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_activities" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "case_activities_completed_idx" ON "case_activities" USING btree ("completed_at");