CREATE TABLE "personal_models" (
	"account_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"model" jsonb,
	"based_on" integer DEFAULT 0 NOT NULL,
	"global_version" text,
	"fingerprint" text,
	"stale_since" bigint,
	"claimed_at" bigint,
	"checked_at" bigint,
	"fitted_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personal_models" ADD CONSTRAINT "personal_models_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_models_stale_idx" ON "personal_models" USING btree ("stale_since");