-- A paid invoice grants the plan its subscription line billed (issue 42): the provider's prices of our plans (those
-- the service made, and those whose plan it read), the plan each recorded invoice billed (NULL for invoices recorded
-- before: their plan was not read), and what an upgrade credited for the unused share of the subscription it replaced.
CREATE TABLE `plan_prices` (
	`price_id` text PRIMARY KEY NOT NULL,
	`plan_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`origin` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plan_prices_plan_idx` ON `plan_prices` (`plan_id`,`amount_cents`,`currency`,`origin`);--> statement-breakpoint
ALTER TABLE `subscription_invoices` ADD `plan_id` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `credited_cents` integer;