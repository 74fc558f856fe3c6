CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`permissions` text NOT NULL,
	`scopes` text DEFAULT '[]' NOT NULL,
	`expires_at` integer,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`input_file_ids` text NOT NULL,
	`output_format` text NOT NULL,
	`output_file_id` text,
	`tokens_reserved` integer NOT NULL,
	`tokens_used` integer DEFAULT 0 NOT NULL,
	`error_message` text,
	`progress` integer,
	`stage` text,
	`priority` integer DEFAULT 5 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`started_at` integer,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `jobs_user_created_idx` ON `jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_user_status_idx` ON `jobs` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `jobs_status_updated_idx` ON `jobs` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `media_files` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`filename` text NOT NULL,
	`original_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`duration` real,
	`storage_key` text NOT NULL,
	`storage_url` text NOT NULL,
	`category` text NOT NULL,
	`metadata` text NOT NULL,
	`source` text NOT NULL,
	`job_id` text,
	`source_url` text,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_files_user_created_idx` ON `media_files` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `media_files_user_category_idx` ON `media_files` (`user_id`,`category`);--> statement-breakpoint
CREATE UNIQUE INDEX `media_files_storage_url_unique` ON `media_files` (`storage_url`);--> statement-breakpoint
CREATE INDEX `media_files_expires_idx` ON `media_files` (`expires_at`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`display_name` text NOT NULL,
	`description` text,
	`tokens_per_month` integer NOT NULL,
	`price_per_month` real,
	`max_concurrent_jobs` integer NOT NULL,
	`bulk_duration_max` integer NOT NULL,
	`support_level` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `token_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`job_id` text,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `token_ledger_user_created_idx` ON `token_ledger` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `token_ledger_job_idx` ON `token_ledger` (`job_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`plan_id` text NOT NULL,
	`token_balance` integer DEFAULT 0 NOT NULL,
	`prepaid_balance` integer DEFAULT 0 NOT NULL,
	`current_period_end` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);