ALTER TABLE "channels" ADD COLUMN "refresh_lease_until" bigint;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "last_checked_at" bigint;