-- Post groups: one composition sent to several channels, each variant its own post (docs/decisions.md).
CREATE TABLE "post_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"post_ids" jsonb NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "group_id" text;--> statement-breakpoint
ALTER TABLE "post_groups" ADD CONSTRAINT "post_groups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_groups_account_idx" ON "post_groups" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_group_id_post_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."post_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_group_idx" ON "posts" USING btree ("group_id") WHERE "posts"."group_id" is not null;