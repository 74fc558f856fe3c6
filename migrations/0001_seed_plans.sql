-- Plans offered by the service. Token allowances are per calendar month (reset by the monthly cron).
INSERT INTO plans (id, name, display_name, description, tokens_per_month, price_per_month, max_concurrent_jobs, bulk_duration_max, support_level) VALUES
  ('free', 'free', 'Free', 'For trying the API: small monthly allowance, 3 jobs at once.', 500, NULL, 3, 5, 'community'),
  ('pro', 'pro', 'Pro', 'For production automations.', 10000, 29, 10, 300, 'email'),
  ('business', 'business', 'Business', 'High volume with priority support.', 100000, 199, 25, 300, 'priority');
