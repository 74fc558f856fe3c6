ALTER TABLE `jobs` ADD `webhook_url` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `metadata` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `url` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `kind` text DEFAULT 'endpoint' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_endpoints_callback_idx` ON `webhook_endpoints` (`user_id`) WHERE "webhook_endpoints"."kind" = 'callback';--> statement-breakpoint
CREATE INDEX `batches_user_created_idx` ON `batches` (`user_id`,`created_at`);