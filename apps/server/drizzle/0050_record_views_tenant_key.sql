-- record_views' primary key carries the tenant (customer_id, id), as every distributed table's
ALTER TABLE "record_views" DROP CONSTRAINT "record_views_pkey";--> statement-breakpoint
ALTER TABLE "record_views" ADD CONSTRAINT "record_views_customer_id_id_pk" PRIMARY KEY("customer_id","id");
