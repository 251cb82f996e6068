ALTER TABLE "customers" ADD COLUMN "brand" varchar(20) DEFAULT 'kestrel' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "contact_name" varchar(120) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "contact_email" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "contact_phone" varchar(20) DEFAULT '' NOT NULL;