ALTER TABLE `jobs` ADD `render_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `failed_render_ms` integer DEFAULT 0 NOT NULL;