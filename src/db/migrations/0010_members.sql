-- An account becomes a workspace with members (docs/teams.md): each account's creator (its
-- email) becomes its owner, and every existing key and OAuth grant becomes that owner's.
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"name" text,
	"role" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_active_at" bigint
);
--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "members_account_email_uq" ON "members" USING btree ("account_id","email_key");--> statement-breakpoint
-- The owner's id: `mem_` and 20 hexadecimal characters of a digest of the account id and a
-- random number (ids are opaque; new ones are base62 from lib/ids.ts).
INSERT INTO "members" ("id", "account_id", "email", "email_key", "name", "role", "created_at", "last_active_at")
  SELECT 'mem_' || substr(md5(a."id" || random()::text), 1, 20), a."id", a."email", a."email_key", NULL, 'owner', a."created_at",
    (SELECT max(k."last_used_at") FROM "api_keys" k WHERE k."account_id" = a."id")
  FROM "accounts" a;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "member_id" text;--> statement-breakpoint
UPDATE "api_keys" k SET "member_id" = m."id" FROM "members" m WHERE m."account_id" = k."account_id";--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD COLUMN "member_id" text;--> statement-breakpoint
UPDATE "oauth_grants" g SET "member_id" = m."id" FROM "members" m WHERE m."account_id" = g."account_id";--> statement-breakpoint
ALTER TABLE "oauth_grants" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_member_idx" ON "api_keys" USING btree ("member_id");
