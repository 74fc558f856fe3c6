CREATE TABLE `batches` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`template_id` text NOT NULL,
	`status` text NOT NULL,
	`mode` text NOT NULL,
	`name_column` text,
	`total_rows` integer NOT NULL,
	`feed_window` integer NOT NULL,
	`rejected` text NOT NULL,
	`ended_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `batches_status_idx` ON `batches` (`status`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`config` text NOT NULL,
	`variables` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `templates_user_created_idx` ON `templates` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `batch_id` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `batch_row` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `batch_name` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `queued_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_batch_row_idx` ON `jobs` (`batch_id`,`batch_row`);