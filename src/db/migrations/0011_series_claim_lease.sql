ALTER TABLE "series" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "series" ADD COLUMN "lease_until" bigint;