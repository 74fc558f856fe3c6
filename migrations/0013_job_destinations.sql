CREATE TABLE `job_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`job_id` text NOT NULL,
	`position` integer NOT NULL,
	`connection_id` text,
	`bucket` text NOT NULL,
	`key` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`files` text NOT NULL,
	`error` text,
	`next_attempt_at` integer,
	`lease_until` integer,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `storage_connections`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_deliveries_job_idx` ON `job_deliveries` (`job_id`,`position`);--> statement-breakpoint
CREATE INDEX `job_deliveries_status_idx` ON `job_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `storage_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`endpoint` text NOT NULL,
	`region` text NOT NULL,
	`bucket` text NOT NULL,
	`addressing` text NOT NULL,
	`access_key_id` text NOT NULL,
	`secret` text NOT NULL,
	`key_template` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `storage_connections_user_idx` ON `storage_connections` (`user_id`,`created_at`);