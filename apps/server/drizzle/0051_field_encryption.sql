ALTER TABLE "case_basic_details" ALTER COLUMN "nin" SET DATA TYPE varchar(256);--> statement-breakpoint
ALTER TABLE "case_basic_details" ALTER COLUMN "nin" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "case_driving_licences" ALTER COLUMN "number" SET DATA TYPE varchar(256);--> statement-breakpoint
ALTER TABLE "case_driving_licences" ALTER COLUMN "number" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "case_passports" ALTER COLUMN "number" SET DATA TYPE varchar(256);--> statement-breakpoint
ALTER TABLE "case_passports" ALTER COLUMN "number" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "case_basic_details" ADD COLUMN "nin_hash" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_driving_licences" ADD COLUMN "number_hash" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_passports" ADD COLUMN "number_hash" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "case_basic_details_nin_hash_idx" ON "case_basic_details" USING btree ("customer_id","nin_hash") WHERE "case_basic_details"."nin_hash" <> '';--> statement-breakpoint
CREATE INDEX "case_driving_licences_number_hash_idx" ON "case_driving_licences" USING btree ("customer_id","number_hash") WHERE "case_driving_licences"."number_hash" <> '';--> statement-breakpoint
CREATE INDEX "case_passports_number_hash_idx" ON "case_passports" USING btree ("customer_id","number_hash") WHERE "case_passports"."number_hash" <> '';