CREATE TABLE `job_chunks` (
	`job_id` text NOT NULL,
	`idx` integer NOT NULL,
	`count` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`instance` text,
	`percent` integer DEFAULT 0 NOT NULL,
	`render_ms` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`job_id`, `idx`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
