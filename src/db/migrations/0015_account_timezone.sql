-- The account's time zone (GET/PATCH /v1/account/settings), the default of queues, series and insights.
ALTER TABLE "accounts" ADD COLUMN "timezone" text DEFAULT 'UTC' NOT NULL;