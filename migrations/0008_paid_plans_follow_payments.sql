-- Paid plans follow the provider's lifecycle (issue 29). Existing pending moves keep pending_plan_reason NULL:
-- they may have been set by the provider (the old subscription.deleted handler), so the owner cannot cancel them.
-- Paid accounts without a subscription are no longer renewed by the calendar; they lapse 30 days after their period.
CREATE TABLE `invoice_payments` (
	`payment_intent_id` text PRIMARY KEY NOT NULL,
	`invoice_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `plan_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`from_plan_id` text NOT NULL,
	`to_plan_id` text NOT NULL,
	`reason` text NOT NULL,
	`ref` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `plan_changes_user_created_idx` ON `plan_changes` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `subscription_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`amount_paid` integer NOT NULL,
	`granted` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscription_invoices_user_idx` ON `subscription_invoices` (`user_id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`payment_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`status` text NOT NULL,
	`ended_reason` text,
	`created_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `pending_plan_reason` text;--> statement-breakpoint
ALTER TABLE `users` ADD `subscription_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `token_debt` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `payment_intent_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `tokens_revoked` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `subscription_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_payment_intent_unique` ON `payments` (`payment_intent_id`);