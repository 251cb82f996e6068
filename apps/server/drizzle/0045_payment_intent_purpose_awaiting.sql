DROP INDEX "payment_intents_purpose_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_purpose_awaiting_idx" ON "payment_intents" USING btree ("customer_id","purpose","purpose_id") WHERE outcome = 'awaiting' and purpose_id is not null;--> statement-breakpoint
CREATE INDEX "payment_intents_purpose_idx" ON "payment_intents" USING btree ("customer_id","purpose","purpose_id");