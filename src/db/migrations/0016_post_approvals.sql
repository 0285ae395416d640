ALTER TABLE "accounts" ADD COLUMN "approvals" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_state" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_requested_by" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_requested_at" bigint;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_run_at" bigint;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_decided_by" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_decided_at" bigint;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval_note" text;