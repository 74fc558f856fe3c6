ALTER TABLE `jobs` ADD `normalized_config` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `plan` text;