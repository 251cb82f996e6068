ALTER TABLE "case_rtw_details" ALTER COLUMN "share_code" SET DATA TYPE varchar(256);--> statement-breakpoint
ALTER TABLE "case_rtw_details" ALTER COLUMN "share_code" SET DEFAULT '';