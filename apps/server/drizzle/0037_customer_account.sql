ALTER TABLE "customers" ADD COLUMN "line_one" varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "line_two" varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "town" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "postcode" varchar(20) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "require_totp" boolean DEFAULT false NOT NULL;