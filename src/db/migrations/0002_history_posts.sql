CREATE TABLE "history_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"text_hash" text NOT NULL,
	"text" text NOT NULL,
	"platform" text NOT NULL,
	"published_at" bigint,
	"published_time_known" boolean DEFAULT false NOT NULL,
	"media" text,
	"reactions" integer,
	"comments" integer,
	"shares" integer,
	"impressions" integer,
	"clicks" integer,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "history_posts" ADD CONSTRAINT "history_posts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "history_posts_text_uq" ON "history_posts" USING btree ("account_id","text_hash");--> statement-breakpoint
CREATE INDEX "history_posts_account_idx" ON "history_posts" USING btree ("account_id","created_at");