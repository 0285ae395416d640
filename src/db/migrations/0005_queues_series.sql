CREATE TABLE "channel_queues" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"timezone" text NOT NULL,
	"slots" jsonb NOT NULL,
	"filled_until" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"channel_id" text,
	"brand_id" text,
	"platform" text NOT NULL,
	"text" text NOT NULL,
	"media_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"thread" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"first_comment" text,
	"unit" text,
	"every" integer,
	"timezone" text NOT NULL,
	"start_at" bigint NOT NULL,
	"until" bigint,
	"count" integer,
	"min_gap_days" integer,
	"status" text NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"next_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "series_id" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "series_index" integer;--> statement-breakpoint
ALTER TABLE "channel_queues" ADD CONSTRAINT "channel_queues_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_queues" ADD CONSTRAINT "channel_queues_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "series_account_idx" ON "series" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "series_due_idx" ON "series" USING btree ("status","next_at");--> statement-breakpoint
CREATE UNIQUE INDEX "posts_series_occurrence_uq" ON "posts" USING btree ("series_id","series_index");--> statement-breakpoint
CREATE INDEX "posts_channel_time_idx" ON "posts" USING btree ("channel_id","scheduled_for");