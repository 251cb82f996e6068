ALTER TABLE "case_documents" ADD COLUMN "rejection_reason" varchar(400) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_documents" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "case_documents" ADD COLUMN "rejected_by" varchar(200) DEFAULT '' NOT NULL;