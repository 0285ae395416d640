-- Each index covers only the posts its readers look for, so a publish's status changes (the
-- claim, the outcome) write 4 index entries each instead of 6 (docs/performance-notes.md).
DROP INDEX "posts_series_occurrence_uq";--> statement-breakpoint
DROP INDEX "posts_due_idx";--> statement-breakpoint
DROP INDEX "posts_metrics_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "posts_series_occurrence_uq" ON "posts" USING btree ("series_id","series_index") WHERE "posts"."series_id" is not null;--> statement-breakpoint
CREATE INDEX "posts_due_idx" ON "posts" USING btree ("status","scheduled_for") WHERE "posts"."status" in ('scheduled', 'publishing');--> statement-breakpoint
CREATE INDEX "posts_metrics_idx" ON "posts" USING btree ("metrics_polled_at") WHERE "posts"."status" = 'published';
