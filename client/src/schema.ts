// Generated from client/openapi.json by openapi-typescript (npm run client:generate). Do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your jobs */
        get: operations["listJobs"];
        put?: never;
        /**
         * Create a render job
         * @description Validates the config, imports public URL inputs, reserves the estimated tokens and queues the job. `webhookUrl`: the job's render events are also posted there, signed with the account's job-callback secret (GET /api/v2/webhooks/job-callbacks) and retried like webhook deliveries. `metadata`: your own JSON object, echoed on the job and in every event. Send `Idempotency-Key` to make a retry safe: the same key and body within 24 h answer the first result.
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a job without creating it
         * @description Always 200 for a JSON body: `isValid`, `errors`, `warnings` (`[{field, message, code}]`: properties accepted with no effect, code `IGNORED_PROPERTY`), `estimatedTokens`, `detectedResources`.
         */
        post: operations["validateJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Job counts and tokens used */
        get: operations["getJobStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/stats/last-30-days": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Completed and failed jobs per UTC day, last 30 days */
        get: operations["getJobDailyCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a job
         * @description Status, config, output file, tokens, error, and `progress` (`percent`, `stage`) while it runs.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        /**
         * Cancel a pending job
         * @description Releases its reserved tokens. A job in any other state answers 400.
         */
        delete: operations["cancelJob"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{jobId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a job's progress (Server-Sent Events)
         * @description `progress` events (`status`, `progress.percent`, `progress.stage`) whenever the job changes, then one `done` event with the whole job when it ends, and the stream closes. A stream lasts at most 5 minutes; EventSource reconnects by itself (the `retry` field says when) and gets the current state first. Comment lines keep an idle stream open.
         */
        get: operations["streamJobEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file
         * @description multipart/form-data with a `file` (at most 100 MiB; type sniffed from the content) and optional `ttlHours` (1 to 720, default 24). Send `Idempotency-Key` to make a retry safe.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a file without storing it */
        post: operations["validateFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/validate/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check an image file without storing it
         * @description JsonCut's route: as POST /api/v1/files/validate, and the content must be image (an error in `validation.errors` otherwise).
         */
        post: operations["validateImageFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/validate/video": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a video file without storing it
         * @description JsonCut's route: as POST /api/v1/files/validate, and the content must be video (an error in `validation.errors` otherwise).
         */
        post: operations["validateVideoFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/validate/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check an audio file without storing it
         * @description JsonCut's route: as POST /api/v1/files/validate, and the content must be audio (an error in `validation.errors` otherwise).
         */
        post: operations["validateAudioFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/supported-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The file types uploads may have
         * @description Per category, the extensions a file may be named with and its MIME types (the content decides; the name and a declared category must agree with it), and the size limit.
         */
        get: operations["getSupportedFileTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your files */
        get: operations["listFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a file's record */
        get: operations["getFile"];
        put?: never;
        post?: never;
        /**
         * Delete a file
         * @description A file an open job reads is refused (400) until the job has finished.
         */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/{fileId}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a file's media metadata */
        get: operations["getFileMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/{fileId}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file's bytes
         * @description With your API key or a session, or with a signed link's `expires` and `signature` (no key). HEAD answers the same headers without the body.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Download a file's bytes
         * @description With your API key or a session, or with a signed link's `expires` and `signature` (no key). HEAD answers the same headers without the body.
         */
        head: operations["headFile"];
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/{fileId}/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a signed download link
         * @description Anyone holding the link can download the file until it expires (60 s to 7 days, default 1 hour; never past the file's own expiry). The body may be left out.
         */
        post: operations["createDownloadLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/{fileId}/public-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a public (signed) download link
         * @description JsonCut's name for POST /api/v1/files/{fileId}/link: the same body (optional `expiresIn`, 60 s to 7 days, default 1 hour; never past the file's own expiry) and answer.
         */
        post: operations["createPublicLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/video/duration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measure one video file's duration
         * @description A stored file (`path`) or a public URL (`url`, fetched through the SSRF guard). Free.
         */
        post: operations["measureVideoDuration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/video/duration/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measure many video files' durations
         * @description 1 token per file attempted, charged up front; at most 5 files on the free plan, 300 on paid plans.
         */
        post: operations["measureVideoDurations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/audio/duration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measure one audio file's duration
         * @description A stored file (`path`) or a public URL (`url`, fetched through the SSRF guard). Free.
         */
        post: operations["measureAudioDuration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/audio/duration/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measure many audio files' durations
         * @description 1 token per file attempted, charged up front; at most 5 files on the free plan, 300 on paid plans.
         */
        post: operations["measureAudioDurations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the config schemas */
        get: operations["listConfigSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Schema of the image or video config */
        get: operations["getConfigSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The renderer callback's health */
        get: operations["getCallbackHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up: e-mails a 6-digit code
         * @description Then POST /api/v1/auth/verify with the code. Needs `hcaptchaToken` where the captcha is on.
         */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in: e-mails a 6-digit code */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange the e-mailed code for a session */
        post: operations["verifyCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End this session */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a sign-in page needs: terms version, captcha site key, the local outbox */
        get: operations["getSignInOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser's session: the account and the CSRF token */
        get: operations["getBrowserSession"];
        put?: never;
        /**
         * Sign in a browser: exchange the e-mailed code for the session cookie
         * @description Like POST /api/v1/auth/verify, but the session travels in an HttpOnly, Secure, SameSite=Strict cookie (`__Host-mrs_session`) and the answer carries the session's `csrfToken` instead of the token. Only from this origin (`Origin`). A session the browser already had is ended.
         */
        post: operations["openBrowserSession"];
        /** Sign a browser out: the session is revoked and the cookie dropped */
        delete: operations["closeBrowserSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read your account */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change your name, e-mail (confirmed by a code) or marketing consent
         * @description A new `email` needs `hcaptchaToken` where sign-in does, and is counted like a sign-in from the requester's address, per account and per new address (429 past a limit, nothing changed).
         */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/api/v1/account/email/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm a new e-mail address with its code */
        post: operations["confirmEmailChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your API keys */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The key (`mrk_...`) is in the answer once; only its hash is stored. At most 50 keys.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plans and their prices */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your plan, balance and this period's usage
         * @description `totalAvailable` is 0 while the account owes tokens of a refunded or disputed purchase (`owedTokens`). `pendingPlan`: a move to a lower plan at the period's end, who scheduled it and whether POST /plan may cancel it; `lastPlanChange`: why the plan last changed (an upgrade paid, a downgrade, the subscription ended or unpaid, a refund, a dispute, a lapse).
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your token ledger, newest first */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change plan
         * @description An upgrade answers a `checkout` for a monthly subscription and applies when its first invoice is paid (a new period with the plan's full allowance); a downgrade is scheduled for the period's end (`pendingPlan`). Asking for the current plan cancels a downgrade you asked for; a move the payment provider scheduled answers 409 saying why (`details.pendingPlan`). 400 when already on the plan.
         */
        post: operations["changePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy prepaid tokens */
        post: operations["buyTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a payment */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your webhook endpoints (scope renders:create) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint (scope renders:create)
         * @description An https URL (checked by the SSRF guard now and at every send), the eventTypes to receive, active. The signing secret `whsec_...` is in this answer once.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks/job-callbacks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signing secret and log id of job callbacks (scope renders:create)
         * @description A job created with `webhookUrl` (POST /api/v1/jobs, POST /api/v2/templates/{id}/renders) gets its render events there, signed with this account-wide secret and retried like any delivery. Created on first use. Its `id` reads the log (GET /api/v2/webhooks/{id}/deliveries, replay) and rotates the secret (POST /api/v2/webhooks/{id}/rotate-secret).
         */
        get: operations["getJobCallbacks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an endpoint (scope renders:create) */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete an endpoint (scope renders:create) */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Update or disable an endpoint (scope renders:create) */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/api/v2/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a signed test event (scope renders:create) */
        post: operations["sendWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret (scope renders:create)
         * @description The old secret keeps signing alongside the new one for the grace period.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an endpoint's deliveries, without bodies (scope operations:read) */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its attempts (scope operations:read) */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay a dead-lettered delivery (scope operations:cancel) */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/storage-connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your storage connections (scope renders:create) */
        get: operations["listStorageConnections"];
        put?: never;
        /**
         * Connect an S3-compatible bucket (scope renders:create)
         * @description AWS S3, Cloudflare R2, Google Cloud Storage (its S3 API, HMAC keys), MinIO... The endpoint passes the SSRF guard (https; no private, loopback or metadata address) now and before every upload. The secret access key is stored sealed and never answered.
         */
        post: operations["createStorageConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/storage-connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a storage connection (scope renders:create) */
        get: operations["getStorageConnection"];
        put?: never;
        post?: never;
        /**
         * Delete a storage connection (scope renders:create)
         * @description Deliveries still due to it fail, saying it was deleted.
         */
        delete: operations["deleteStorageConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your templates */
        get: operations["listTemplates"];
        put?: never;
        /**
         * Create a template
         * @description A job config with `{{name}}` placeholders in any string, and optionally `variables` declaring each one's type (`string`, `number`, `colour`, `file`), `required` and `default`; undeclared placeholders are derived (string, required). The template is validated now, with sample values standing in for the variables.
         */
        post: operations["createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a template */
        get: operations["getTemplate"];
        /**
         * Replace a template
         * @description Validated like a new one; batches already submitted keep their jobs' configs.
         */
        put: operations["replaceTemplate"];
        post?: never;
        /** Delete a template */
        delete: operations["deleteTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{id}/renders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a template once
         * @description `{ variables, webhookUrl?, metadata?, destinations? }`: the variables are merged as a batch row's are (the same types, defaults, conditions and errors, fields `variables.<name>`), then one job is created as POST /api/v1/jobs creates it and answered the same way (402, 429 and `Idempotency-Key` included). Counts against job creation's rate limit.
         */
        post: operations["renderTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{id}/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a batch of rows
         * @description JSON `{ rows: [{column: value}], mode?, nameColumn? }` or a `text/csv` body (header row; `mode` and `nameColumn` in the query). Every row is merged and validated before anything is charged: `all-or-nothing` (default) refuses the batch if any row is bad, `valid-only` opens the good rows and lists the others. Errors carry `row` (1-based, header excluded) and `field`. Rows and bytes are bounded per plan (free 100 rows / 256 KiB, pro 1,000 / 2 MiB, business 5,000 / 8 MiB), columns to 200. A video batch is refused (429) while the account's failed renders are over their daily quota, like a video job. `Idempotency-Key` makes a retry safe.
         */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your batches
         * @description Newest first, `page` and `limit` (1-100, default 20), optionally `templateId` and `status` (RUNNING, COMPLETED, CANCELLED). Each batch without its jobs (GET /api/v2/batches/{id} has them).
         */
        get: operations["listBatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a batch
         * @description Status, job counts per state, `progress` (0-100) and the jobs in row order.
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        /**
         * Cancel a batch
         * @description Jobs not yet started are cancelled and their reserves released; started ones finish.
         */
        delete: operations["cancelBatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/batches/{id}/output": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a finished batch's outputs as one ZIP
         * @description Streamed; entries named by the batch's `nameColumn` (else `row-<n>`). Outputs expire like job outputs (7 days): expired ones are left out; 410 when none is left.
         */
        get: operations["downloadBatchOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/batches/{id}/manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The batch's manifest: row, job, file, status
         * @description `format=json` (default) or `format=csv`; rejected rows included with their errors.
         */
        get: operations["getBatchManifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorBody: {
            /** @constant */
            success: false;
            /** @description What went wrong, in a sentence */
            error: string;
            /** @description `errors` (field, message, code) for invalid input; otherwise what the status needs (`required`/`available`/`owed` tokens, `retryAfter` seconds, `requestId` of a 500...) */
            details?: {
                errors?: {
                    field?: string;
                    message: string;
                    code?: string;
                    /** @description The batch row (1-based, a CSV header excluded) */
                    row?: number;
                }[];
                /** @description 402: the tokens the request needs */
                required?: number;
                /** @description 402: the tokens the account may spend now */
                available?: number;
                /** @description 402: tokens of a refunded or disputed purchase still owed */
                owed?: number;
                /** @description 429: seconds to wait (as `Retry-After`) */
                retryAfter?: number;
                /** @description 429: renderer seconds the account's failed video jobs used in 24 h */
                failedRenderSeconds?: number;
                /** @description 429: the most failed video jobs may use in 24 h */
                maxFailedRenderSeconds?: number;
                /** @description 500: the request, for support */
                requestId?: string;
            } & {
                [key: string]: unknown;
            };
        };
        FieldError: {
            field?: string;
            message: string;
            code?: string;
        };
        FieldWarning: {
            field: string;
            message: string;
            /** @enum {string} */
            code: "IGNORED_PROPERTY";
        };
        Deleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        Job: {
            id: string;
            /** @enum {string} */
            type: "IMAGE" | "VIDEO";
            /** @enum {string} */
            status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
            /** @description png, jpeg, webp, mp4, webm, ... */
            outputFormat: string;
            /** @description The output file, once COMPLETED */
            outputFileId: string | null;
            tokensUsed: number;
            errorMessage: string | null;
            startedAt: string | null;
            completedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            progress: {
                percent: number;
                /** @description The renderer's stage (e.g. `encoding`); `completed` once the job is */
                stage: string | null;
            } | null;
            /** @description The config as submitted */
            config: {
                [key: string]: unknown;
            };
            inputFileIds: string[];
            priority: number;
            /** @description Where its render events are also delivered; null without */
            webhookUrl: string | null;
            /** @description The metadata the job was created with; null without */
            metadata: {
                [key: string]: unknown;
            } | null;
            captions?: components["schemas"]["Captions"];
            frames?: components["schemas"]["Frames"];
            /** @description Only for a job created with destinations: one entry per destination, in order */
            destinations?: components["schemas"]["Delivery"][];
        };
        JobListItem: {
            id: string;
            /** @enum {string} */
            type: "IMAGE" | "VIDEO";
            /** @enum {string} */
            status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
            /** @description png, jpeg, webp, mp4, webm, ... */
            outputFormat: string;
            /** @description The output file, once COMPLETED */
            outputFileId: string | null;
            tokensUsed: number;
            errorMessage: string | null;
            startedAt: string | null;
            completedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            progress: {
                percent: number;
                /** @description The renderer's stage (e.g. `encoding`); `completed` once the job is */
                stage: string | null;
            } | null;
        };
        JobList: {
            jobs: components["schemas"]["JobListItem"][];
            pagination: components["schemas"]["Pagination"];
        };
        Pagination: {
            page: number;
            limit: number;
            totalCount: number;
            totalPages: number;
            hasNextPage: boolean;
            hasPrevPage: boolean;
        };
        /** @description Only for a video that asked for autoSubtitles */
        Captions: {
            /** @constant */
            status: "pending";
            files: {
                /** @enum {string} */
                kind: "transcript" | "vtt" | "srt";
                fileId: string;
                mimeType: string;
                size: number;
                /** @description The file's download path (API key or session) */
                downloadUrl: string;
            }[];
        } | {
            /** @constant */
            status: "done";
            backend: ("pocketsphinx" | "workers-ai") | null;
            language: string | null;
            words: number;
            cues: number;
            note: string | null;
            files: {
                /** @enum {string} */
                kind: "transcript" | "vtt" | "srt";
                fileId: string;
                mimeType: string;
                size: number;
                /** @description The file's download path (API key or session) */
                downloadUrl: string;
            }[];
        };
        /** @description Only for a video that asked for a poster or thumbnails */
        Frames: {
            /** @constant */
            status: "pending";
            files: {
                /** @enum {string} */
                kind: "poster" | "thumbnail" | "sprite" | "sprite-vtt";
                /** @description Seconds into the video the image shows (poster, thumbnail) */
                time: number | null;
                fileId: string;
                mimeType: string;
                size: number;
                /** @description The file's download path (API key or session) */
                downloadUrl: string;
            }[];
        } | {
            /** @constant */
            status: "done";
            files: {
                /** @enum {string} */
                kind: "poster" | "thumbnail" | "sprite" | "sprite-vtt";
                /** @description Seconds into the video the image shows (poster, thumbnail) */
                time: number | null;
                fileId: string;
                mimeType: string;
                size: number;
                /** @description The file's download path (API key or session) */
                downloadUrl: string;
            }[];
        };
        JobCreated: {
            jobId: string;
            /** @constant */
            status: "PENDING";
            /** @enum {string} */
            type: "IMAGE" | "VIDEO";
            /** @description Reserved now; the final cost is settled when it ends */
            estimatedTokens: number;
            /** Format: date-time */
            createdAt: string;
            /** @description Accepted properties that change nothing here (an editly option such as `outPath`) */
            warnings: components["schemas"]["FieldWarning"][];
        };
        JobValidation: {
            isValid: boolean;
            errors: components["schemas"]["FieldError"][];
            /** @description Accepted properties that change nothing here (an editly option such as `outPath`) */
            warnings: components["schemas"]["FieldWarning"][];
            /** @description What creating it would reserve (0 when invalid) */
            estimatedTokens: number;
            detectedResources: {
                /** @enum {string} */
                type: "image" | "video" | "audio" | "font" | "shader" | "captions" | "unknown";
                url: string;
                size?: number;
            }[];
        };
        JobCancelled: {
            id: string;
            /** @enum {string} */
            status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
            /** Format: date-time */
            updatedAt: string;
        };
        JobStats: {
            total: number;
            totalTokensUsed: number;
            byStatus: {
                PENDING: number;
                PROCESSING: number;
                COMPLETED: number;
                FAILED: number;
                CANCELLED: number;
            };
            byType: {
                IMAGE: number;
                VIDEO: number;
            };
        };
        DailyJobCounts: {
            /** Format: date */
            date: string;
            success: number;
            failed: number;
        }[];
        JobEvent: {
            /** @constant */
            event: "progress";
            data: components["schemas"]["JobProgressEvent"];
        } | {
            /** @constant */
            event: "done";
            data: components["schemas"]["Job"];
        };
        JobProgressEvent: {
            id: string;
            /** @enum {string} */
            status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
            progress: {
                percent: number;
                /** @description The renderer's stage (e.g. `encoding`); `completed` once the job is */
                stage: string | null;
            } | null;
            /** @description The metadata the job was created with; null without */
            metadata: {
                [key: string]: unknown;
            } | null;
            /** Format: date-time */
            updatedAt: string;
        };
        UploadedFile: {
            id: string;
            filename: string;
            originalName: string;
            mimeType: string;
            /** @description The path a config names the file by (a layer's `path`) */
            storageUrl: string;
            /** @description What was measured at upload: `category`, `validationResult`, dimensions, codecs... */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the file is deleted (absent: kept)
             */
            expiresAt?: string;
            /** Format: date-time */
            createdAt: string;
        };
        MediaFile: {
            id: string;
            filename: string;
            originalName: string;
            mimeType: string;
            /** @description The path a config names the file by (a layer's `path`) */
            storageUrl: string;
            /** @description What was measured at upload: `category`, `validationResult`, dimensions, codecs... */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the file is deleted (absent: kept)
             */
            expiresAt?: string;
            /** Format: date-time */
            createdAt: string;
            width: number | null;
            height: number | null;
            /** @description Seconds, for video and audio */
            duration: number | null;
            size: number;
            /** Format: date-time */
            updatedAt: string;
        };
        FileList: {
            files: components["schemas"]["MediaFile"][];
            total: number;
            page: number;
            per_page: number;
        };
        FileMetadata: {
            storageUrl: string;
            /** @description What was measured at upload: `category`, `validationResult`, dimensions, codecs... */
            metadata: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            updatedAt: string;
        };
        FileValidation: {
            validation: {
                isValid: boolean;
                fileSize: number;
                /** @description The detected extension, or `unknown` */
                fileType: string;
                detectedMimeType: string;
                errors: string[];
                /** @enum {string} */
                category: "image" | "video" | "audio" | "font" | "shader" | "captions" | "unknown";
            };
            uploadedFile: {
                originalName: string;
                /** @description The type the form declared */
                mimetype: string;
                size: number;
            };
        };
        DownloadLink: {
            /** Format: uri */
            url: string;
            /** Format: date-time */
            expiresAt: string;
        };
        SupportedFileTypes: {
            categories: {
                image: {
                    /** @description File name extensions, without the dot */
                    extensions: string[];
                    mimeTypes: string[];
                };
                video: {
                    /** @description File name extensions, without the dot */
                    extensions: string[];
                    mimeTypes: string[];
                };
                audio: {
                    /** @description File name extensions, without the dot */
                    extensions: string[];
                    mimeTypes: string[];
                };
                font: {
                    /** @description File name extensions, without the dot */
                    extensions: string[];
                    mimeTypes: string[];
                };
                shader: {
                    /** @description File name extensions, without the dot */
                    extensions: string[];
                    mimeTypes: string[];
                };
                captions: {
                    /** @description File name extensions, without the dot */
                    extensions: string[];
                    mimeTypes: string[];
                };
            };
            /** @description The largest upload, in bytes */
            maxFileSize: number;
        };
        DurationResult: {
            durationMs: number;
            /** @description e.g. `00:01:23.456` */
            durationFormatted: string;
            /** @enum {string} */
            source: "storage" | "url";
            /** @description The path or URL as given */
            originalPath: string;
        };
        BulkDurationResult: {
            results: ({
                /** @constant */
                success: true;
                durationMs: number;
                /** @description e.g. `00:01:23.456` */
                durationFormatted: string;
                /** @enum {string} */
                source: "storage" | "url";
                /** @description The path or URL as given */
                originalPath: string;
            } | {
                /** @constant */
                success: false;
                error: string;
                originalPath: string;
            })[];
            summary: {
                total: number;
                successful: number;
                failed: number;
                totalDurationMs: number;
                totalDurationFormatted: string;
            };
        };
        SchemaList: {
            schemas: {
                /** @enum {string} */
                name: "image" | "video";
                description: string;
                usage: string;
                /** @description Where the schema is served */
                url: string;
            }[];
        };
        ConfigSchema: {
            /** @description The JSON Schema (draft-07) of the config */
            schema: {
                [key: string]: unknown;
            };
            description: string;
            /** @description The grammar's version */
            version: string;
        };
        Health: {
            /** @constant */
            status: "healthy";
            /** Format: date-time */
            timestamp: string;
            service: string;
            version: string;
            /** @description production or development */
            environment: string;
        };
        CallbackHealth: {
            /** @constant */
            status: "healthy";
            /** Format: date-time */
            timestamp: string;
            /** @description The callback's path */
            webhookEndpoint: string;
        };
        Account: {
            id: string;
            email: string;
            name: string | null;
            planId: string;
            /** @description A downgrade that applies at the period's end */
            pendingPlanId: string | null;
            marketingAccepted: boolean;
            termsVersion: string | null;
            termsAcceptedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CodeSent: {
            /** @constant */
            sent: true;
            email: string;
            expiresInSeconds: number;
            next: string;
        };
        SignedIn: {
            session: {
                /** @description Send it as `Authorization: Bearer <token>` */
                token: string;
                /** Format: date-time */
                expiresAt: string;
            };
            user: components["schemas"]["Account"];
        };
        AccountUpdated: {
            user: components["schemas"]["Account"];
            emailChange?: {
                sentTo: string;
                expiresInSeconds: number;
            };
        };
        LoggedOut: {
            /** @constant */
            loggedOut: true;
        };
        SignInOptions: {
            /** @description The terms version registration accepts */
            termsVersion: string;
            /** @description The captcha widget to show (null: no captcha) */
            captcha: {
                /** @constant */
                provider: "hcaptcha";
                siteKey: string;
            } | null;
            /** @description Where the mailed code lands on a local run (null in production) */
            devOutbox: string | null;
            codeTtlSeconds: number;
        };
        BrowserSession: {
            user: components["schemas"]["Account"];
            /** @description Send it as `x-csrf-token` on every request but GET/HEAD */
            csrfToken: string;
            /** Format: date-time */
            expiresAt: string;
        };
        ApiKey: {
            id: string;
            name: string;
            /** @description The key's first characters, to recognise it */
            prefix: string;
            permissions: {
                /** @enum {string} */
                resource: "media" | "jobs";
                /** @enum {string} */
                action: "read" | "full";
            }[];
            scopes: ("renders:create" | "renders:read" | "operations:read" | "operations:cancel" | "templates:read" | "templates:write" | "templates:bulk")[];
            expiresAt: string | null;
            lastUsedAt: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        ApiKeyList: {
            apiKeys: components["schemas"]["ApiKey"][];
        };
        CreatedApiKey: {
            /** @description mrk_...: store it now, it is never shown again */
            key: string;
            apiKey: components["schemas"]["ApiKey"];
        };
        Plan: {
            id: string;
            name: string;
            displayName: string;
            description: string | null;
            tokensPerMonth: number;
            /** @description USD per month; null for free */
            pricePerMonth: number | null;
            maxConcurrentJobs: number;
            /** @enum {string} */
            supportLevel: "community" | "email" | "priority";
        };
        PlanList: {
            plans: components["schemas"]["Plan"][];
        };
        TokenUsage: {
            monthlyUsed: number;
            monthlyQuota: number;
            monthlyRemaining: number;
            prepaidBalance: number;
            /** @description What work may spend now: 0 while tokens are owed */
            totalAvailable: number;
            /** @description Tokens of a refunded or disputed purchase that were already spent; repaid first from later credits */
            owedTokens: number;
            /** Format: date-time */
            currentPeriodEnd: string;
        };
        PendingPlan: {
            id: string;
            /** Format: date-time */
            effectiveAt: string;
            /**
             * @description `requested`: the owner asked for it; `scheduled_cancel`: the subscription ends at the provider
             * @enum {string}
             */
            reason: "requested" | "scheduled_cancel" | "unknown";
            /** @description Why, in a sentence */
            message: string;
            /** @description Whether POST /api/v1/billing/plan with the current plan cancels it (only a move the owner asked for) */
            cancellable: boolean;
        };
        PlanChangeRecord: {
            from: string;
            to: string;
            /** @enum {string} */
            reason: "upgrade" | "requested" | "billed" | "subscription_ended" | "subscription_unpaid" | "payment_failed" | "refunded" | "disputed" | "lapsed";
            /** @description Why, in a sentence */
            message: string;
            /** Format: date-time */
            at: string;
        };
        CurrentPlan: {
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["TokenUsage"];
            pendingPlan: components["schemas"]["PendingPlan"] | null;
            /** @description Why the plan last changed; null while it never has */
            lastPlanChange: components["schemas"]["PlanChangeRecord"] | null;
        };
        LedgerPage: {
            entries: {
                id: string;
                /** @enum {string} */
                kind: "grant" | "purchase" | "reserve" | "release" | "charge" | "expire" | "adjust" | "revoke";
                /** @description The signed change of the balance */
                amount: number;
                /** @description The part that moved prepaid tokens */
                prepaidAmount: number;
                /** @description The part that moved the monthly allowance */
                monthlyAmount: number;
                jobId: string | null;
                note: string | null;
                /** Format: date-time */
                createdAt: string;
            }[];
            pagination: {
                page: number;
                limit: number;
                totalCount: number;
                totalPages: number;
            };
        };
        PlanChangeResult: {
            /** @constant */
            status: "unchanged";
            plan: components["schemas"]["Plan"];
            pendingPlan: null;
        } | {
            /** @constant */
            status: "scheduled";
            plan: components["schemas"]["Plan"];
            pendingPlan: components["schemas"]["PendingPlan"];
        } | {
            /** @constant */
            status: "payment_required";
            plan: components["schemas"]["Plan"];
            checkout: components["schemas"]["Checkout"];
        };
        Checkout: {
            paymentId: string;
            checkoutUrl: string;
            sessionId: string;
            amountCents: number;
            currency: string;
            /** Format: date-time */
            expiresAt: string;
        };
        Payment: {
            id: string;
            /** @enum {string} */
            kind: "tokens" | "plan";
            tokens: number | null;
            planId: string | null;
            amountCents: number;
            currency: string;
            /** @enum {string} */
            status: "pending" | "paid" | "expired" | "refunded" | "disputed";
            /** @description Tokens of a pack taken back after a refund or dispute */
            tokensRevoked: number;
            /** Format: date-time */
            createdAt: string;
            paidAt: string | null;
        };
        WebhookEndpoint: {
            id: string;
            name: string;
            url: string;
            eventTypes: ("render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed" | "render.delivered" | "render.delivery_failed")[];
            active: boolean;
            /** @description Why the service disabled it (after failing for days); null otherwise */
            disabledReason: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WebhookEndpointList: components["schemas"]["WebhookEndpoint"][];
        WebhookEndpointCreated: {
            id: string;
            name: string;
            url: string;
            eventTypes: ("render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed" | "render.delivered" | "render.delivery_failed")[];
            active: boolean;
            /** @description Why the service disabled it (after failing for days); null otherwise */
            disabledReason: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description whsec_...: the Standard Webhooks signing secret */
            secret: string;
        };
        RotatedSecret: {
            id: string;
            /** @description The new whsec_... secret, shown this once */
            secret: string;
            /** @description Until when the old secret still signs; null: it stopped now */
            previousSecretExpiresAt: string | null;
        };
        WebhookDelivery: {
            id: string;
            endpointId: string;
            /** @description The `webhook-id` header of every attempt: deduplicate on it */
            eventId: string;
            eventType: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "dead_letter";
            attempts: number;
            responseStatus: number | null;
            lastError: string | null;
            nextAttemptAt: string | null;
            /** Format: date-time */
            createdAt: string;
            deliveredAt: string | null;
        };
        WebhookDeliveryList: components["schemas"]["WebhookDelivery"][];
        WebhookAttempt: {
            attempt: number;
            /** @enum {string} */
            status: "succeeded" | "failed";
            responseStatus: number | null;
            durationMs: number;
            error: string | null;
            /** @description The first bytes of the receiver's answer */
            responseBody: string | null;
            /** Format: date-time */
            attemptedAt: string;
        };
        WebhookDeliveryDetail: {
            id: string;
            endpointId: string;
            /** @description The `webhook-id` header of every attempt: deduplicate on it */
            eventId: string;
            eventType: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "dead_letter";
            attempts: number;
            responseStatus: number | null;
            lastError: string | null;
            nextAttemptAt: string | null;
            /** Format: date-time */
            createdAt: string;
            deliveredAt: string | null;
            event: {
                id: string;
                type: string;
                jobId: string | null;
            } | null;
            attemptLog: components["schemas"]["WebhookAttempt"][];
        };
        QueuedTestEvent: {
            deliveryId: string;
            eventId: string;
            eventType: string;
        };
        ReplayResult: {
            replayed: boolean;
            /** @enum {string} */
            status: "pending" | "delivered" | "dead_letter";
        };
        StorageConnection: {
            id: string;
            name: string;
            endpoint: string;
            region: string;
            bucket: string;
            /** @enum {string} */
            addressing: "path" | "virtual";
            accessKeyId: string;
            keyTemplate: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        StorageConnectionList: components["schemas"]["StorageConnection"][];
        Delivery: {
            /** @description Null once the connection was deleted */
            connectionId: string | null;
            bucket: string;
            /** @description The output's object key */
            key: string;
            /**
             * @description waiting (for the job), pending (an attempt is due), delivering, delivered, failed, skipped (the job did not complete)
             * @enum {string}
             */
            status: "waiting" | "pending" | "delivering" | "delivered" | "failed" | "skipped";
            attempts: number;
            /** @description The last attempt's error */
            error: string | null;
            /** @description The files uploaded so far */
            files: {
                /** @description `output`, or the suffix of another file of the job (`.poster.png`, `.captions.vtt`) */
                name: string;
                key: string;
                contentType: string;
                size: number;
                etag: string;
            }[];
            nextAttemptAt: string | null;
            deliveredAt: string | null;
        };
        JobCallbacks: {
            /** @description The endpoint id of job callbacks: their log is GET /api/v2/webhooks/{id}/deliveries */
            id: string;
            /** @description whsec_...: every job callback is signed with it (Standard Webhooks) */
            secret: string;
            /** @description After a rotation, until when the previous secret also signs; null otherwise */
            previousSecretExpiresAt: string | null;
            /** @description What a job's webhookUrl receives: every render event of that job */
            eventTypes: ("render.started" | "render.completed" | "render.failed" | "render.cancelled")[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Template: {
            id: string;
            name: string;
            /** @enum {string} */
            type: "image" | "video";
            /** @description The config with its {{name}} placeholders */
            config: {
                [key: string]: unknown;
            };
            variables: {
                name: string;
                /** @enum {string} */
                type: "string" | "number" | "colour" | "file";
                required: boolean;
                default?: string | number;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        TemplateList: {
            templates: components["schemas"]["Template"][];
        };
        BatchCreated: {
            batchId: string;
            templateId: string;
            /** @constant */
            status: "RUNNING";
            /** @enum {string} */
            mode: "valid-only" | "all-or-nothing";
            totalRows: number;
            accepted: number;
            rejected: {
                row: number;
                errors: components["schemas"]["FieldError"][];
            }[];
            estimatedTokens: number;
            /** Format: date-time */
            createdAt: string;
        };
        BatchJob: {
            row: number;
            name: string | null;
            jobId: string;
            /** @enum {string} */
            status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
            progress: number;
            outputFileId: string | null;
            error: string | null;
        };
        Batch: {
            id: string;
            templateId: string;
            /** @enum {string} */
            status: "RUNNING" | "COMPLETED" | "CANCELLED";
            /** @enum {string} */
            mode: "valid-only" | "all-or-nothing";
            nameColumn: string | null;
            totalRows: number;
            accepted: number;
            rejected: number;
            counts: {
                PENDING: number;
                PROCESSING: number;
                COMPLETED: number;
                FAILED: number;
                CANCELLED: number;
            };
            progress: number;
            /** Format: date-time */
            createdAt: string;
            endedAt: string | null;
            jobs: components["schemas"]["BatchJob"][];
        };
        BatchSummary: {
            id: string;
            templateId: string;
            /** @enum {string} */
            status: "RUNNING" | "COMPLETED" | "CANCELLED";
            /** @enum {string} */
            mode: "valid-only" | "all-or-nothing";
            nameColumn: string | null;
            totalRows: number;
            accepted: number;
            rejected: number;
            counts: {
                PENDING: number;
                PROCESSING: number;
                COMPLETED: number;
                FAILED: number;
                CANCELLED: number;
            };
            progress: number;
            /** Format: date-time */
            createdAt: string;
            endedAt: string | null;
        };
        BatchList: {
            batches: components["schemas"]["BatchSummary"][];
            pagination: components["schemas"]["Pagination"];
        };
        ManifestEntry: {
            row: number;
            name: string | null;
            jobId: string | null;
            /** @enum {string} */
            status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED" | "REJECTED";
            fileId: string | null;
            /** @description The entry's name in the ZIP, when its output is there */
            zipEntry: string | null;
            error: string | null;
        };
        BatchManifest: {
            batchId: string;
            /** @enum {string} */
            status: "RUNNING" | "COMPLETED" | "CANCELLED";
            /** Format: date-time */
            createdAt: string;
            entries: components["schemas"]["ManifestEntry"][];
        };
        /** @description Image job config. Cross-field rules beyond this schema: a text layer with "wrap": true needs "width" (its own or from defaults); "minFontSize" and "maxFontSize" go together (minimum at most the maximum), need "width" on a text layer and replace "fontSize" (not both on one object); at most 5 html layers per job; html/css sizes are UTF-8 bytes. */
        ImageConfig: {
            width: number;
            height: number;
            backgroundColor?: components["schemas"]["ImageConfig.Color"];
            background?: components["schemas"]["ImageConfig.Color"];
            /**
             * @default png
             * @enum {string}
             */
            format?: "png" | "jpeg" | "jpg" | "webp";
            /** @default 90 */
            quality?: number;
            defaults?: {
                layer?: {
                    path?: components["schemas"]["ImageConfig.ImageRef"];
                    x?: number;
                    y?: number;
                    position?: components["schemas"]["ImageConfig.Position"];
                    width?: number;
                    height?: number;
                    /** @enum {string} */
                    fit?: "cover" | "contain" | "fill" | "inside" | "outside";
                    opacity?: number;
                    rotation?: number;
                    blur?: number;
                    borderRadius?: number;
                    text?: string;
                    /** @enum {string} */
                    align?: "left" | "center" | "right";
                    wrap?: boolean;
                    lineHeight?: number;
                    fontSize?: number;
                    /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                    minFontSize?: number;
                    /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its width (required), and its height when given, wrapping and line height honoured, no word broken; replaces fontSize. */
                    maxFontSize?: number;
                    color?: components["schemas"]["ImageConfig.Color"];
                    fontFamily?: string;
                    fontPath?: components["schemas"]["ImageConfig.FontRef"];
                    googleFont?: string;
                    catalogFont?: string;
                    backgroundColor?: components["schemas"]["ImageConfig.Color"];
                    fill?: components["schemas"]["ImageConfig.Color"];
                    stroke?: components["schemas"]["ImageConfig.Color"];
                    strokeWidth?: number;
                    gradient?: {
                        /** @enum {string} */
                        type?: "linear" | "radial";
                        colors: components["schemas"]["ImageConfig.Color"][];
                        /** @enum {string} */
                        direction?: "horizontal" | "vertical" | "diagonal";
                    };
                    html?: string;
                    src?: string;
                    css?: string;
                    tailwindcss?: boolean;
                    googleFonts?: string[];
                    wait?: number;
                    enableLibraries?: boolean;
                };
                layerType?: {
                    image?: {
                        path?: components["schemas"]["ImageConfig.ImageRef"];
                        x?: number;
                        y?: number;
                        position?: components["schemas"]["ImageConfig.Position"];
                        width?: number;
                        height?: number;
                        /** @enum {string} */
                        fit?: "cover" | "contain" | "fill" | "inside" | "outside";
                        opacity?: number;
                        rotation?: number;
                        blur?: number;
                        borderRadius?: number;
                    };
                    text?: {
                        text?: string;
                        x?: number;
                        y?: number;
                        position?: components["schemas"]["ImageConfig.Position"];
                        /** @enum {string} */
                        align?: "left" | "center" | "right";
                        width?: number;
                        wrap?: boolean;
                        lineHeight?: number;
                        height?: number;
                        fontSize?: number;
                        /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                        minFontSize?: number;
                        /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its width (required), and its height when given, wrapping and line height honoured, no word broken; replaces fontSize. */
                        maxFontSize?: number;
                        color?: components["schemas"]["ImageConfig.Color"];
                        fontFamily?: string;
                        fontPath?: components["schemas"]["ImageConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        backgroundColor?: components["schemas"]["ImageConfig.Color"];
                        opacity?: number;
                        rotation?: number;
                        blur?: number;
                    };
                    rectangle?: {
                        x?: number;
                        y?: number;
                        position?: components["schemas"]["ImageConfig.Position"];
                        width?: number;
                        height?: number;
                        fill?: components["schemas"]["ImageConfig.Color"];
                        stroke?: components["schemas"]["ImageConfig.Color"];
                        strokeWidth?: number;
                        opacity?: number;
                        blur?: number;
                        rotation?: number;
                        borderRadius?: number;
                    };
                    circle?: {
                        x?: number;
                        y?: number;
                        position?: components["schemas"]["ImageConfig.Position"];
                        width?: number;
                        height?: number;
                        fill?: components["schemas"]["ImageConfig.Color"];
                        stroke?: components["schemas"]["ImageConfig.Color"];
                        strokeWidth?: number;
                        opacity?: number;
                        blur?: number;
                    };
                    gradient?: {
                        x?: number;
                        y?: number;
                        position?: components["schemas"]["ImageConfig.Position"];
                        width?: number;
                        height?: number;
                        gradient?: {
                            /** @enum {string} */
                            type?: "linear" | "radial";
                            colors: components["schemas"]["ImageConfig.Color"][];
                            /** @enum {string} */
                            direction?: "horizontal" | "vertical" | "diagonal";
                        };
                        opacity?: number;
                        rotation?: number;
                        blur?: number;
                    };
                    html?: {
                        html?: string;
                        src?: string;
                        css?: string;
                        tailwindcss?: boolean;
                        googleFonts?: string[];
                        wait?: number;
                        enableLibraries?: boolean;
                        width?: number;
                        height?: number;
                        position?: components["schemas"]["ImageConfig.Position"];
                        x?: number;
                        y?: number;
                        opacity?: number;
                        rotation?: number;
                        blur?: number;
                    };
                };
            };
            layers: components["schemas"]["ImageConfig.ImageLayer"][];
        };
        "ImageConfig.Color": string;
        "ImageConfig.Position": ("center" | "top" | "bottom" | "top-left" | "top-right" | "center-left" | "center-right" | "bottom-left" | "bottom-right") | components["schemas"]["ImageConfig.PositionObject"];
        "ImageConfig.PositionObject": {
            x: number;
            y: number;
            /** @enum {string} */
            originX?: "left" | "center" | "right";
            /** @enum {string} */
            originY?: "top" | "center" | "bottom";
        };
        "ImageConfig.ImageRef": string;
        "ImageConfig.FontRef": string;
        "ImageConfig.ImageLayer": (unknown & unknown & unknown & unknown) & ({
            /** @constant */
            type: "image";
            path: components["schemas"]["ImageConfig.ImageRef"];
            x?: number;
            y?: number;
            position?: components["schemas"]["ImageConfig.Position"];
            width?: number;
            height?: number;
            /** @enum {string} */
            fit?: "cover" | "contain" | "fill" | "inside" | "outside";
            opacity?: number;
            rotation?: number;
            blur?: number;
            borderRadius?: number;
        } | {
            /** @constant */
            type: "text";
            text: string;
            x?: number;
            y?: number;
            position?: components["schemas"]["ImageConfig.Position"];
            /** @enum {string} */
            align?: "left" | "center" | "right";
            width?: number;
            wrap?: boolean;
            lineHeight?: number;
            height?: number;
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its width (required), and its height when given, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            color?: components["schemas"]["ImageConfig.Color"];
            fontFamily?: string;
            fontPath?: components["schemas"]["ImageConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            backgroundColor?: components["schemas"]["ImageConfig.Color"];
            opacity?: number;
            rotation?: number;
            blur?: number;
        } | {
            /** @constant */
            type: "rectangle";
            x?: number;
            y?: number;
            position?: components["schemas"]["ImageConfig.Position"];
            width?: number;
            height?: number;
            fill?: components["schemas"]["ImageConfig.Color"];
            stroke?: components["schemas"]["ImageConfig.Color"];
            strokeWidth?: number;
            opacity?: number;
            blur?: number;
            rotation?: number;
            borderRadius?: number;
        } | {
            /** @constant */
            type: "circle";
            x?: number;
            y?: number;
            position?: components["schemas"]["ImageConfig.Position"];
            width?: number;
            height?: number;
            fill?: components["schemas"]["ImageConfig.Color"];
            stroke?: components["schemas"]["ImageConfig.Color"];
            strokeWidth?: number;
            opacity?: number;
            blur?: number;
        } | {
            /** @constant */
            type: "gradient";
            x?: number;
            y?: number;
            position?: components["schemas"]["ImageConfig.Position"];
            width?: number;
            height?: number;
            gradient: {
                /** @enum {string} */
                type?: "linear" | "radial";
                colors: components["schemas"]["ImageConfig.Color"][];
                /** @enum {string} */
                direction?: "horizontal" | "vertical" | "diagonal";
            };
            opacity?: number;
            rotation?: number;
            blur?: number;
        } | {
            /** @constant */
            type: "html";
            html?: string;
            src?: string;
            css?: string;
            tailwindcss?: boolean;
            googleFonts?: string[];
            wait?: number;
            enableLibraries?: boolean;
            width?: number;
            height?: number;
            position?: components["schemas"]["ImageConfig.Position"];
            x?: number;
            y?: number;
            opacity?: number;
            rotation?: number;
            blur?: number;
        });
        /** @description Video job config. Cross-field rules beyond this schema: cutTo > cutFrom and stop > start on a layer; "minFontSize" and "maxFontSize" go together (minimum at most the maximum) and replace "fontSize" (not both on one object); at most 5 html layers per job; at most 10000 characters of speech text per job; the output (clip lengths minus transition overlaps) lasts at most 3600 s; html/css sizes are UTF-8 bytes. */
        VideoConfig: {
            /** @default 1280 */
            width?: number;
            /** @default 720 */
            height?: number;
            /** @default 25 */
            fps?: number;
            /**
             * @description Output file: mp4, mov (H.264; ProRes 4444 with alpha: true), webm (VP9 with alpha), gif (one palette per video, scaled to fit 640 px, at most 20 fps and 60 s), mp3, wav or m4a (the audio mix only). Absent: the extension of editly's outPath, else mp4.
             * @default mp4
             * @enum {string}
             */
            format?: "mp4" | "mov" | "webm" | "gif" | "mp3" | "wav" | "m4a";
            /** @description With format "mov": ProRes 4444 with an alpha channel (areas no layer covers stay transparent). Plain mov is H.264; webm always keeps alpha; other formats refuse it. */
            alpha?: boolean;
            gif?: {
                /**
                 * @description How colours outside the GIF's 256-colour palette (made for this video) are dithered.
                 * @default sierra2_4a
                 * @enum {string}
                 */
                dither?: "sierra2_4a" | "floyd_steinberg" | "bayer" | "none";
            };
            /** @description Adds one image of the frame the video shows at `time` (seconds, before its end) to the job's outputs. */
            poster?: {
                time: number;
                /**
                 * @default png
                 * @enum {string}
                 */
                format?: "png" | "jpeg";
            };
            /** @description Adds evenly spaced frames to the job's outputs: `count` frames at 0, D/count, 2D/count... or one every `interval` seconds from 0 (one of the two; at most 100), each `width` px wide; `sprite: true` adds one sheet of them (10 a row, at most 4096x4096 pixels in all) and a WebVTT index for players. */
            thumbnails?: {
                count?: number;
                interval?: number;
                /** @default 160 */
                width?: number;
                /**
                 * @default jpeg
                 * @enum {string}
                 */
                format?: "png" | "jpeg";
                sprite?: boolean;
            };
            /** @description Render only the frame the video shows at `time` (seconds, before its end), as a PNG or JPEG image: the job's output is that image (priced like a small image job). */
            still?: {
                time: number;
                /**
                 * @default png
                 * @enum {string}
                 */
                format?: "png" | "jpeg";
            };
            /** @description Render a smaller (`scale` 0.1-1 of the size) and/or shorter (`from`..`to` seconds of the video) version for checking; charged by the seconds it renders. Not with still, poster or thumbnails. */
            preview?: {
                /** @default 1 */
                scale?: number;
                from?: number;
                to?: number;
            };
            fast?: boolean;
            clips: components["schemas"]["VideoConfig.Clip"][];
            defaults?: {
                duration?: number;
                transition?: components["schemas"]["VideoConfig.Transition"] | null;
                layer?: {
                    path?: components["schemas"]["VideoConfig.VideoRef"] | components["schemas"]["VideoConfig.AudioRef"] | components["schemas"]["VideoConfig.ImageRef"];
                    /** @enum {string} */
                    resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
                    cutFrom?: number;
                    cutTo?: number;
                    speed?: number;
                    loop?: boolean;
                    width?: (number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[]) | (number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[]) | number;
                    height?: (number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[]) | (number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[]) | number;
                    left?: components["schemas"]["VideoConfig.1"];
                    top?: components["schemas"]["VideoConfig.1"];
                    /** @enum {string} */
                    originX?: "left" | "center" | "right";
                    /** @enum {string} */
                    originY?: "top" | "center" | "bottom";
                    position?: components["schemas"]["VideoConfig.VideoPosition"] | components["schemas"]["VideoConfig.Position"];
                    mixVolume?: components["schemas"]["VideoConfig.8"] | ((number | string) | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[]);
                    zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
                    zoomAmount?: components["schemas"]["VideoConfig.1"];
                    /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                    opacity?: number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[];
                    /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                    rotation?: number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[];
                    /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                    scale?: number | {
                        time: number;
                        value: number;
                        /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                        easing?: string;
                    }[];
                    start?: number;
                    stop?: number;
                    text?: string;
                    /** @description The voice: an espeak-ng voice such as `en-us` or `en+f3` for the offline voice; production's Workers AI voice is chosen by `language`. Default: the language's voice. */
                    voice?: string;
                    /** @description The spoken language (ISO 639-1, optionally with a region). Default `en`. */
                    language?: string;
                    /** @description Speed as a multiple of the voice's normal pace (0.5-2, default 1). */
                    rate?: number;
                    /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
                    frameTime?: number;
                    duration?: number;
                    textColor?: components["schemas"]["VideoConfig.Color"];
                    fontSize?: number | components["schemas"]["VideoConfig.3"];
                    /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                    minFontSize?: number;
                    /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
                    maxFontSize?: number;
                    fontPath?: components["schemas"]["VideoConfig.FontRef"];
                    googleFont?: string;
                    catalogFont?: string;
                    fontFamily?: string;
                    /** @enum {string} */
                    style?: "fade-in" | "word-by-word" | "letter-by-letter";
                    animationDuration?: number;
                    outlineColor?: components["schemas"]["VideoConfig.Color"];
                    outlineWidth?: number;
                    /** @enum {string} */
                    outlineStyle?: "outline" | "shadow" | "glow";
                    backgroundColor?: components["schemas"]["VideoConfig.Color"];
                    delay?: number;
                    background?: {
                        /** @enum {string} */
                        type: "fill-color" | "linear-gradient" | "radial-gradient";
                        color?: components["schemas"]["VideoConfig.Color"];
                        colors?: components["schemas"]["VideoConfig.Color"][];
                        /** @enum {string} */
                        direction?: "horizontal" | "vertical" | "diagonal";
                    };
                    charSpacing?: number;
                    color?: components["schemas"]["VideoConfig.Color"];
                    colors?: components["schemas"]["VideoConfig.Color"][];
                    /** @enum {string} */
                    direction?: "horizontal" | "vertical" | "diagonal";
                    html?: string;
                    src?: string;
                    css?: string;
                    tailwindcss?: boolean;
                    googleFonts?: string[];
                    wait?: number;
                    enableLibraries?: boolean;
                    animated?: boolean;
                    fragmentShader?: string;
                    fragmentPath?: string;
                };
                layerType?: {
                    video?: {
                        path?: components["schemas"]["VideoConfig.VideoRef"];
                        /** @enum {string} */
                        resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
                        cutFrom?: number;
                        cutTo?: number;
                        /** @description Plays the cut this many times as fast (0.25-4); a clip without duration lasts the cut divided by it. The sound keeps its pitch. Given, the cut is never stretched to the clip. */
                        speed?: number;
                        /** @description Repeats the cut (at its speed) for as long as the layer lasts, instead of holding its last frame; its sound repeats with it. Does not lengthen a clip without duration. */
                        loop?: boolean;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        width?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        height?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        left?: components["schemas"]["VideoConfig.1"];
                        top?: components["schemas"]["VideoConfig.1"];
                        /** @enum {string} */
                        originX?: "left" | "center" | "right";
                        /** @enum {string} */
                        originY?: "top" | "center" | "bottom";
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        mixVolume?: components["schemas"]["VideoConfig.8"];
                        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
                        zoomAmount?: components["schemas"]["VideoConfig.1"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    audio?: {
                        path?: components["schemas"]["VideoConfig.AudioRef"];
                        cutFrom?: number;
                        cutTo?: number;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        mixVolume?: (number | string) | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "detached-audio"?: {
                        path?: components["schemas"]["VideoConfig.AudioRef"];
                        cutFrom?: number;
                        cutTo?: number;
                        mixVolume?: components["schemas"]["VideoConfig.8"];
                        start?: number;
                        stop?: number;
                    };
                    speech?: {
                        /** @description What is said (at most 5000 characters; all the speech of a job together at most 10000). Costs 1 token per started 100 characters. */
                        text?: string;
                        /** @description The voice: an espeak-ng voice such as `en-us` or `en+f3` for the offline voice; production's Workers AI voice is chosen by `language`. Default: the language's voice. */
                        voice?: string;
                        /** @description The spoken language (ISO 639-1, optionally with a region). Default `en`. */
                        language?: string;
                        /** @description Speed as a multiple of the voice's normal pace (0.5-2, default 1). */
                        rate?: number;
                        mixVolume?: components["schemas"]["VideoConfig.8"];
                        start?: number;
                        /** @description Seconds after the clip starts where the speech is cut off. */
                        stop?: number;
                    };
                    image?: {
                        path?: components["schemas"]["VideoConfig.ImageRef"];
                        /** @enum {string} */
                        resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
                        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
                        zoomAmount?: components["schemas"]["VideoConfig.1"];
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        width?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        height?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it. */
                        loop?: boolean;
                        /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
                        frameTime?: number;
                        start?: number;
                        stop?: number;
                        /** @description an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop */
                        duration?: number;
                    };
                    "image-overlay"?: {
                        path?: components["schemas"]["VideoConfig.ImageRef"];
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        width?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        height?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
                        zoomAmount?: components["schemas"]["VideoConfig.1"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it. */
                        loop?: boolean;
                        /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
                        frameTime?: number;
                        start?: number;
                        stop?: number;
                    };
                    title?: {
                        text?: string;
                        textColor?: components["schemas"]["VideoConfig.Color"];
                        fontSize?: number;
                        /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                        minFontSize?: number;
                        /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
                        maxFontSize?: number;
                        fontPath?: components["schemas"]["VideoConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        fontFamily?: string;
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        /** @enum {string} */
                        style?: "fade-in" | "word-by-word" | "letter-by-letter";
                        animationDuration?: number;
                        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
                        zoomAmount?: components["schemas"]["VideoConfig.1"];
                        outlineColor?: components["schemas"]["VideoConfig.Color"];
                        outlineWidth?: number;
                        /** @enum {string} */
                        outlineStyle?: "outline" | "shadow" | "glow";
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    subtitle?: {
                        text?: string;
                        textColor?: components["schemas"]["VideoConfig.Color"];
                        fontSize?: number;
                        /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                        minFontSize?: number;
                        /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
                        maxFontSize?: number;
                        fontPath?: components["schemas"]["VideoConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        fontFamily?: string;
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        backgroundColor?: components["schemas"]["VideoConfig.Color"];
                        delay?: number;
                        speed?: number;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "news-title"?: {
                        text?: string;
                        textColor?: components["schemas"]["VideoConfig.Color"];
                        fontSize?: number;
                        /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                        minFontSize?: number;
                        /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
                        maxFontSize?: number;
                        fontPath?: components["schemas"]["VideoConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        fontFamily?: string;
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        backgroundColor?: components["schemas"]["VideoConfig.Color"];
                        delay?: number;
                        speed?: number;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "title-background"?: {
                        text?: string;
                        textColor?: components["schemas"]["VideoConfig.Color"];
                        fontSize?: number;
                        /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
                        minFontSize?: number;
                        /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
                        maxFontSize?: number;
                        fontPath?: components["schemas"]["VideoConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        fontFamily?: string;
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        /** @enum {string} */
                        style?: "fade-in" | "word-by-word" | "letter-by-letter";
                        animationDuration?: number;
                        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
                        zoomAmount?: components["schemas"]["VideoConfig.1"];
                        outlineColor?: components["schemas"]["VideoConfig.Color"];
                        outlineWidth?: number;
                        /** @enum {string} */
                        outlineStyle?: "outline" | "shadow" | "glow";
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                        background?: {
                            /** @enum {string} */
                            type: "fill-color" | "linear-gradient" | "radial-gradient";
                            color?: components["schemas"]["VideoConfig.Color"];
                            colors?: components["schemas"]["VideoConfig.Color"][];
                            /** @enum {string} */
                            direction?: "horizontal" | "vertical" | "diagonal";
                        };
                    };
                    "slide-in-text"?: {
                        text?: string;
                        fontSize?: components["schemas"]["VideoConfig.3"];
                        charSpacing?: number;
                        textColor?: components["schemas"]["VideoConfig.Color"];
                        fontPath?: components["schemas"]["VideoConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        fontFamily?: string;
                        position?: components["schemas"]["VideoConfig.VideoPosition"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "fill-color"?: {
                        color?: components["schemas"]["VideoConfig.Color"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "linear-gradient"?: {
                        colors?: components["schemas"]["VideoConfig.Color"][];
                        /** @enum {string} */
                        direction?: "horizontal" | "vertical" | "diagonal";
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "radial-gradient"?: {
                        colors?: components["schemas"]["VideoConfig.Color"][];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "rainbow-colors"?: {
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    pause?: {
                        color?: components["schemas"]["VideoConfig.Color"];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    "editly-banner"?: {
                        fontPath?: components["schemas"]["VideoConfig.FontRef"];
                        googleFont?: string;
                        catalogFont?: string;
                        fontFamily?: string;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    html?: {
                        html?: string;
                        src?: string;
                        css?: string;
                        tailwindcss?: boolean;
                        googleFonts?: string[];
                        wait?: number;
                        enableLibraries?: boolean;
                        width?: number;
                        height?: number;
                        position?: components["schemas"]["VideoConfig.Position"];
                        animated?: boolean;
                        duration?: number;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                    gl?: {
                        fragmentShader?: string;
                        fragmentPath?: string;
                        speed?: number;
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        opacity?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        rotation?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
                        scale?: number | {
                            time: number;
                            value: number;
                            /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                            easing?: string;
                        }[];
                        start?: number;
                        stop?: number;
                    };
                };
            };
            audioFilePath?: components["schemas"]["VideoConfig.AudioRef"];
            backgroundAudioVolume?: components["schemas"]["VideoConfig.8"];
            loopAudio?: boolean;
            keepSourceAudio?: boolean;
            clipsAudioVolume?: components["schemas"]["VideoConfig.8"];
            outputVolume?: components["schemas"]["VideoConfig.8"];
            audioTracks?: components["schemas"]["VideoConfig.10"][];
            audioNorm?: {
                enable?: boolean;
                gaussSize?: number;
                maxGain?: number;
            };
            globalLayers?: components["schemas"]["VideoConfig.GlobalLayer"][];
            autoSubtitles?: boolean;
            autoSubtitlesStyle?: {
                /** @enum {string} */
                animation?: "word-by-word" | "letter-by-letter" | "none";
                /**
                 * @description How the spoken words are drawn, at the frame each word is said: karaoke (each word fills with highlightColor, left to right, as it is said), pop (each word scales in as it is said), box (a rounded box of highlightColor behind the word being said), one-word (one word at a time, large). Not with animation.
                 * @enum {string}
                 */
                preset?: "karaoke" | "pop" | "box" | "one-word";
                textColor?: components["schemas"]["VideoConfig.Color"];
                fontSize?: number;
                fontPath?: components["schemas"]["VideoConfig.FontRef"];
                googleFont?: string;
                catalogFont?: string;
                position?: components["schemas"]["VideoConfig.Position"];
                outlineColor?: components["schemas"]["VideoConfig.Color"];
                outlineWidth?: number;
                /** @enum {string} */
                outlineStyle?: "outline" | "shadow" | "glow";
                /** @description The word being said is drawn in this colour (the others in textColor); with animation none every word of the cue shows and the highlight moves from word to word. With preset karaoke the colour words fill with (default #ffd400), with box the colour of the box (default #7c3aed). */
                highlightColor?: string;
                /** @description Words on a caption line at most (default: as many as fit the width). */
                wordsPerLine?: number;
                /** @description Lines a caption page shows at most (default 2, at most 4; one-word shows one). */
                maxLines?: number;
                /** @description Characters on a caption line at most, spaces included (4-80; default: as many as fit the width); a longer word gets a line of its own. */
                maxCharsPerLine?: number;
                /** @description Draw the captions in capital letters (default false). */
                allCaps?: boolean;
                /** @description A box of this colour behind each caption (with alpha, e.g. #000000b3); default none. */
                backgroundColor?: string;
            };
            autoSubtitlesLanguage?: string;
            ducking?: {
                /** @description dB the music is lowered under speech (default 12). */
                amount?: number;
                /** @description Seconds the music takes to go down before speech (default 0.15). */
                attack?: number;
                /** @description Seconds the music takes to come back after speech (default 0.4). */
                release?: number;
            };
            /** @description An uploaded .srt or .vtt file burned in at its cues' times, drawn with autoSubtitlesStyle; not with autoSubtitles. */
            captionsFile?: string;
            /** @description editly's output file: the service stores the output and answers its URL; when "format" is absent, its extension (mp4, mov, webm, gif, mp3, wav, m4a) sets the format (else mp4) */
            outPath?: string;
            /** @description an editly logging option with no effect here (job progress and errors come with the job) */
            enableFfmpegLog?: boolean;
            /** @description an editly logging option with no effect here (job progress and errors come with the job) */
            verbose?: boolean;
            /** @description an editly logging option with no effect here (job progress and errors come with the job) */
            logTimes?: boolean;
            /** @description an editly logging option with no effect here (job progress and errors come with the job) */
            keepTmp?: boolean;
            /** @description an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed */
            ffmpegPath?: string;
            /** @description an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed */
            ffprobePath?: string;
            /** @description an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed */
            customOutputArgs?: string[];
            /** @description an editly option: http(s) paths are always fetched here (public addresses only) */
            allowRemoteRequests?: boolean;
        };
        "VideoConfig.1": number;
        "VideoConfig.3": number;
        "VideoConfig.8": number | string;
        "VideoConfig.10": {
            path: components["schemas"]["VideoConfig.AudioRef"];
            mixVolume?: components["schemas"]["VideoConfig.8"];
            start?: number;
            cutFrom?: number;
            cutTo?: number;
        };
        "VideoConfig.Color": string;
        "VideoConfig.Position": ("center" | "top" | "bottom" | "top-left" | "top-right" | "center-left" | "center-right" | "bottom-left" | "bottom-right") | components["schemas"]["VideoConfig.PositionObject"];
        "VideoConfig.PositionObject": {
            x: number;
            y: number;
            /** @enum {string} */
            originX?: "left" | "center" | "right";
            /** @enum {string} */
            originY?: "top" | "center" | "bottom";
        };
        "VideoConfig.ImageRef": string;
        "VideoConfig.VideoRef": string;
        "VideoConfig.AudioRef": string;
        "VideoConfig.FontRef": string;
        "VideoConfig.VideoPosition": ("center" | "top" | "bottom" | "top-left" | "top-right" | "center-left" | "center-right" | "bottom-left" | "bottom-right") | {
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            x: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            y: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @enum {string} */
            originX?: "left" | "center" | "right";
            /** @enum {string} */
            originY?: "top" | "center" | "bottom";
        };
        "VideoConfig.Transition": {
            /**
             * @example directional-left
             * @example directional-right
             * @example directional-up
             * @example directional-down
             * @example random
             * @example dummy
             * @example Bounce
             * @example BowTieHorizontal
             * @example BowTieVertical
             * @example ButterflyWaveScrawler
             * @example CircleCrop
             * @example ColourDistance
             * @example CrazyParametricFun
             * @example CrossZoom
             * @example Directional
             * @example DoomScreenTransition
             * @example Dreamy
             * @example DreamyZoom
             * @example GlitchDisplace
             * @example GlitchMemories
             * @example GridFlip
             * @example InvertedPageCurl
             * @example LinearBlur
             * @example Mosaic
             * @example PolkaDotsCurtain
             * @example Radial
             * @example SimpleZoom
             * @example StereoViewer
             * @example Swirl
             * @example WaterDrop
             * @example ZoomInCircles
             * @example angular
             * @example burn
             * @example cannabisleaf
             * @example circle
             * @example circleopen
             * @example colorphase
             * @example crosshatch
             * @example crosswarp
             * @example cube
             * @example directionalwarp
             * @example directionalwipe
             * @example displacement
             * @example doorway
             * @example fade
             * @example fadecolor
             * @example fadegrayscale
             * @example flyeye
             * @example heart
             * @example hexagonalize
             * @example kaleidoscope
             * @example luma
             * @example luminance_melt
             * @example morph
             * @example multiply_blend
             * @example perlin
             * @example pinwheel
             * @example pixelize
             * @example polar_function
             * @example randomsquares
             * @example ripple
             * @example rotate_scale_fade
             * @example squareswire
             * @example squeeze
             * @example swap
             * @example undulatingBurnOut
             * @example wind
             * @example windowblinds
             * @example windowslice
             * @example wipeDown
             * @example wipeLeft
             * @example wipeRight
             * @example wipeUp
             * @example AdvancedMosaic
             * @example BlockDissolve
             * @example BookFlip
             * @example BowTieWithParameter
             * @example Box
             * @example burn0
             * @example chessboard
             * @example coord-from-in
             * @example DefocusBlur
             * @example directional-easing
             * @example DirectionalScaled
             * @example dissolve
             * @example Drop_Zone_Flicker
             * @example EdgeTransition
             * @example FilmBurn
             * @example Fold
             * @example fragment
             * @example HorizontalClose
             * @example HorizontalOpen
             * @example HSVfade
             * @example LeftRight
             * @example mosaic_transition
             * @example old_tv_lost_signal
             * @example Overexposure
             * @example parametric_glitch
             * @example powerKaleido
             * @example PuzzleRight
             * @example randomNoisex
             * @example Rectangle
             * @example RectangleCrop
             * @example Revolve_Left
             * @example Rolls
             * @example RotateScaleVanish
             * @example rotateTransition
             * @example scale-in
             * @example SimpleFlip
             * @example SimpleZoomOut
             * @example Slides
             * @example splitSlideInHorizontal
             * @example splitSlideInOutHorizontal
             * @example splitSlideInOutVertical
             * @example splitSlideInVertical
             * @example splitSlideOutHorizontal
             * @example splitSlideOutVertical
             * @example StarWipe
             * @example StaticFade
             * @example static_wipe
             * @example StripDatamoshGlitch
             * @example tangentMotionBlur
             * @example TilesWave
             * @example TopBottom
             * @example TVStatic
             * @example VerticalClose
             * @example VerticalOpen
             * @example x_axis_translation
             * @example zoomInOut
             * @example ZoomLeftWipe
             * @example ZoomRigthWipe
             */
            name?: string;
            duration?: number;
            /** @enum {string} */
            audioOutCurve?: "tri" | "qsin" | "hsin" | "esin" | "log" | "ipar" | "qua" | "cub" | "squ" | "cbr" | "par" | "exp" | "iqsin" | "ihsin" | "dese" | "desi" | "losi" | "nofade" | "linear";
            /** @enum {string} */
            audioInCurve?: "tri" | "qsin" | "hsin" | "esin" | "log" | "ipar" | "qua" | "cub" | "squ" | "cbr" | "par" | "exp" | "iqsin" | "ihsin" | "dese" | "desi" | "losi" | "nofade" | "linear";
            easing?: ("linear" | "easeOutExpo" | "easeInOutCubic") | null;
            params?: {
                [key: string]: number | boolean | string | number[];
            };
        };
        "VideoConfig.Clip": {
            duration?: number;
            transition?: components["schemas"]["VideoConfig.Transition"] | null;
            layers: components["schemas"]["VideoConfig.VideoLayer"][] | components["schemas"]["VideoConfig.VideoLayer"];
        };
        "VideoConfig.VideoLayer": (unknown & unknown & unknown & unknown) & ({
            /** @constant */
            type: "video";
            path: components["schemas"]["VideoConfig.VideoRef"];
            /** @enum {string} */
            resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
            cutFrom?: number;
            cutTo?: number;
            /** @description Plays the cut this many times as fast (0.25-4); a clip without duration lasts the cut divided by it. The sound keeps its pitch. Given, the cut is never stretched to the clip. */
            speed?: number;
            /** @description Repeats the cut (at its speed) for as long as the layer lasts, instead of holding its last frame; its sound repeats with it. Does not lengthen a clip without duration. */
            loop?: boolean;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            width?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            height?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            left?: components["schemas"]["VideoConfig.1"];
            top?: components["schemas"]["VideoConfig.1"];
            /** @enum {string} */
            originX?: "left" | "center" | "right";
            /** @enum {string} */
            originY?: "top" | "center" | "bottom";
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            mixVolume?: number | string;
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "audio";
            path: components["schemas"]["VideoConfig.AudioRef"];
            cutFrom?: number;
            cutTo?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            mixVolume?: (number | string) | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "detached-audio";
            path: components["schemas"]["VideoConfig.AudioRef"];
            cutFrom?: number;
            cutTo?: number;
            mixVolume?: components["schemas"]["VideoConfig.8"];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "speech";
            /** @description What is said (at most 5000 characters; all the speech of a job together at most 10000). Costs 1 token per started 100 characters. */
            text: string;
            /** @description The voice: an espeak-ng voice such as `en-us` or `en+f3` for the offline voice; production's Workers AI voice is chosen by `language`. Default: the language's voice. */
            voice?: string;
            /** @description The spoken language (ISO 639-1, optionally with a region). Default `en`. */
            language?: string;
            /** @description Speed as a multiple of the voice's normal pace (0.5-2, default 1). */
            rate?: number;
            mixVolume?: components["schemas"]["VideoConfig.8"];
            start?: number;
            /** @description Seconds after the clip starts where the speech is cut off. */
            stop?: number;
        } | {
            /** @constant */
            type: "image";
            path: components["schemas"]["VideoConfig.ImageRef"];
            /** @enum {string} */
            resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            width?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            height?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it. */
            loop?: boolean;
            /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
            frameTime?: number;
            start?: number;
            stop?: number;
            /** @description an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop */
            duration?: number;
        } | {
            /** @constant */
            type: "image-overlay";
            path: components["schemas"]["VideoConfig.ImageRef"];
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            width?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            height?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it. */
            loop?: boolean;
            /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
            frameTime?: number;
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "title";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @enum {string} */
            style?: "fade-in" | "word-by-word" | "letter-by-letter";
            animationDuration?: number;
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            outlineColor?: components["schemas"]["VideoConfig.Color"];
            outlineWidth?: number;
            /** @enum {string} */
            outlineStyle?: "outline" | "shadow" | "glow";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "subtitle";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            backgroundColor?: components["schemas"]["VideoConfig.Color"];
            delay?: number;
            speed?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "news-title";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            backgroundColor?: components["schemas"]["VideoConfig.Color"];
            delay?: number;
            speed?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "title-background";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @enum {string} */
            style?: "fade-in" | "word-by-word" | "letter-by-letter";
            animationDuration?: number;
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            outlineColor?: components["schemas"]["VideoConfig.Color"];
            outlineWidth?: number;
            /** @enum {string} */
            outlineStyle?: "outline" | "shadow" | "glow";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
            background?: {
                /** @enum {string} */
                type: "fill-color" | "linear-gradient" | "radial-gradient";
                color?: components["schemas"]["VideoConfig.Color"];
                colors?: components["schemas"]["VideoConfig.Color"][];
                /** @enum {string} */
                direction?: "horizontal" | "vertical" | "diagonal";
            };
        } | {
            /** @constant */
            type: "slide-in-text";
            text: string;
            fontSize?: components["schemas"]["VideoConfig.3"];
            charSpacing?: number;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "fill-color";
            color?: components["schemas"]["VideoConfig.Color"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "linear-gradient";
            colors?: components["schemas"]["VideoConfig.Color"][];
            /** @enum {string} */
            direction?: "horizontal" | "vertical" | "diagonal";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "radial-gradient";
            colors?: components["schemas"]["VideoConfig.Color"][];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "rainbow-colors";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "pause";
            color?: components["schemas"]["VideoConfig.Color"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "editly-banner";
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "html";
            html?: string;
            src?: string;
            css?: string;
            tailwindcss?: boolean;
            googleFonts?: string[];
            wait?: number;
            enableLibraries?: boolean;
            width?: number;
            height?: number;
            position?: components["schemas"]["VideoConfig.Position"];
            animated?: boolean;
            duration?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "gl";
            fragmentShader?: string;
            fragmentPath?: string;
            speed?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        });
        "VideoConfig.GlobalLayer": (unknown & unknown & unknown & unknown) & ({
            /** @constant */
            type: "image";
            path: components["schemas"]["VideoConfig.ImageRef"];
            /** @enum {string} */
            resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            width?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            height?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it. */
            loop?: boolean;
            /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
            frameTime?: number;
            start?: number;
            stop?: number;
            /** @description an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop */
            duration?: number;
        } | {
            /** @constant */
            type: "image-overlay";
            path: components["schemas"]["VideoConfig.ImageRef"];
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            width?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            height?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it. */
            loop?: boolean;
            /** @description Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length). */
            frameTime?: number;
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "title";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @enum {string} */
            style?: "fade-in" | "word-by-word" | "letter-by-letter";
            animationDuration?: number;
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            outlineColor?: components["schemas"]["VideoConfig.Color"];
            outlineWidth?: number;
            /** @enum {string} */
            outlineStyle?: "outline" | "shadow" | "glow";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "subtitle";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            backgroundColor?: components["schemas"]["VideoConfig.Color"];
            delay?: number;
            speed?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "news-title";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            backgroundColor?: components["schemas"]["VideoConfig.Color"];
            delay?: number;
            speed?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "title-background";
            text: string;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontSize?: number;
            /** @description With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows. */
            minFontSize?: number;
            /** @description With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height, wrapping and line height honoured, no word broken; replaces fontSize. */
            maxFontSize?: number;
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @enum {string} */
            style?: "fade-in" | "word-by-word" | "letter-by-letter";
            animationDuration?: number;
            zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | null;
            zoomAmount?: components["schemas"]["VideoConfig.1"];
            outlineColor?: components["schemas"]["VideoConfig.Color"];
            outlineWidth?: number;
            /** @enum {string} */
            outlineStyle?: "outline" | "shadow" | "glow";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
            background?: {
                /** @enum {string} */
                type: "fill-color" | "linear-gradient" | "radial-gradient";
                color?: components["schemas"]["VideoConfig.Color"];
                colors?: components["schemas"]["VideoConfig.Color"][];
                /** @enum {string} */
                direction?: "horizontal" | "vertical" | "diagonal";
            };
        } | {
            /** @constant */
            type: "slide-in-text";
            text: string;
            fontSize?: components["schemas"]["VideoConfig.3"];
            charSpacing?: number;
            textColor?: components["schemas"]["VideoConfig.Color"];
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            position?: components["schemas"]["VideoConfig.VideoPosition"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "fill-color";
            color?: components["schemas"]["VideoConfig.Color"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "linear-gradient";
            colors?: components["schemas"]["VideoConfig.Color"][];
            /** @enum {string} */
            direction?: "horizontal" | "vertical" | "diagonal";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "radial-gradient";
            colors?: components["schemas"]["VideoConfig.Color"][];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "rainbow-colors";
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "pause";
            color?: components["schemas"]["VideoConfig.Color"];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "editly-banner";
            fontPath?: components["schemas"]["VideoConfig.FontRef"];
            googleFont?: string;
            catalogFont?: string;
            fontFamily?: string;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "html";
            html?: string;
            src?: string;
            css?: string;
            tailwindcss?: boolean;
            googleFonts?: string[];
            wait?: number;
            enableLibraries?: boolean;
            width?: number;
            height?: number;
            position?: components["schemas"]["VideoConfig.Position"];
            animated?: boolean;
            duration?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        } | {
            /** @constant */
            type: "gl";
            fragmentShader?: string;
            fragmentPath?: string;
            speed?: number;
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            opacity?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            rotation?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            /** @description A number, or up to 100 keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last. */
            scale?: number | {
                time: number;
                value: number;
                /** @description How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS's curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe). */
                easing?: string;
            }[];
            start?: number;
            stop?: number;
        });
    };
    responses: {
        /** @description Invalid input (`details.errors`: field, message, code) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Missing or invalid credential */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Not enough tokens (`details.required`, `details.available`; `details.owed` while the account owes tokens of a refunded or disputed purchase), or a feature the plan lacks (`details.errors`, code PLAN_REQUIRED) */
        PaymentRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The credential lacks the permission or scope */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Not found, or not yours */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Conflict (an Idempotency-Key reused with another request, or a state that forbids it) */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Gone (expired) */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Body too large */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Wrong Content-Type */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The Range is outside the file (`details.size`) */
        RangeNotSatisfiable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The media could not be processed */
        UnprocessableMedia: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Rate or concurrency limit (`Retry-After`, `details.retryAfter`), or the daily quota of failed video renders (`Retry-After`, `details.retryAfter`, `failedRenderSeconds`, `maxFailedRenderSeconds`) */
        TooManyRequests: {
            headers: {
                /** @description Seconds until the limit allows the request again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Unexpected failure (`details.requestId`; never a stack trace) */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The renderer or another dependency failed */
        BadGateway: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type ErrorBody = components['schemas']['ErrorBody'];
export type FieldError = components['schemas']['FieldError'];
export type FieldWarning = components['schemas']['FieldWarning'];
export type Deleted = components['schemas']['Deleted'];
export type Job = components['schemas']['Job'];
export type JobListItem = components['schemas']['JobListItem'];
export type JobList = components['schemas']['JobList'];
export type Pagination = components['schemas']['Pagination'];
export type Captions = components['schemas']['Captions'];
export type Frames = components['schemas']['Frames'];
export type JobCreated = components['schemas']['JobCreated'];
export type JobValidation = components['schemas']['JobValidation'];
export type JobCancelled = components['schemas']['JobCancelled'];
export type JobStats = components['schemas']['JobStats'];
export type DailyJobCounts = components['schemas']['DailyJobCounts'];
export type JobEvent = components['schemas']['JobEvent'];
export type JobProgressEvent = components['schemas']['JobProgressEvent'];
export type UploadedFile = components['schemas']['UploadedFile'];
export type MediaFile = components['schemas']['MediaFile'];
export type FileList = components['schemas']['FileList'];
export type FileMetadata = components['schemas']['FileMetadata'];
export type FileValidation = components['schemas']['FileValidation'];
export type DownloadLink = components['schemas']['DownloadLink'];
export type SupportedFileTypes = components['schemas']['SupportedFileTypes'];
export type DurationResult = components['schemas']['DurationResult'];
export type BulkDurationResult = components['schemas']['BulkDurationResult'];
export type SchemaList = components['schemas']['SchemaList'];
export type ConfigSchema = components['schemas']['ConfigSchema'];
export type Health = components['schemas']['Health'];
export type CallbackHealth = components['schemas']['CallbackHealth'];
export type Account = components['schemas']['Account'];
export type CodeSent = components['schemas']['CodeSent'];
export type SignedIn = components['schemas']['SignedIn'];
export type AccountUpdated = components['schemas']['AccountUpdated'];
export type LoggedOut = components['schemas']['LoggedOut'];
export type SignInOptions = components['schemas']['SignInOptions'];
export type BrowserSession = components['schemas']['BrowserSession'];
export type ApiKey = components['schemas']['ApiKey'];
export type ApiKeyList = components['schemas']['ApiKeyList'];
export type CreatedApiKey = components['schemas']['CreatedApiKey'];
export type Plan = components['schemas']['Plan'];
export type PlanList = components['schemas']['PlanList'];
export type TokenUsage = components['schemas']['TokenUsage'];
export type PendingPlan = components['schemas']['PendingPlan'];
export type PlanChangeRecord = components['schemas']['PlanChangeRecord'];
export type CurrentPlan = components['schemas']['CurrentPlan'];
export type LedgerPage = components['schemas']['LedgerPage'];
export type PlanChangeResult = components['schemas']['PlanChangeResult'];
export type Checkout = components['schemas']['Checkout'];
export type Payment = components['schemas']['Payment'];
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookEndpointList = components['schemas']['WebhookEndpointList'];
export type WebhookEndpointCreated = components['schemas']['WebhookEndpointCreated'];
export type RotatedSecret = components['schemas']['RotatedSecret'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryList = components['schemas']['WebhookDeliveryList'];
export type WebhookAttempt = components['schemas']['WebhookAttempt'];
export type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];
export type QueuedTestEvent = components['schemas']['QueuedTestEvent'];
export type ReplayResult = components['schemas']['ReplayResult'];
export type StorageConnection = components['schemas']['StorageConnection'];
export type StorageConnectionList = components['schemas']['StorageConnectionList'];
export type Delivery = components['schemas']['Delivery'];
export type JobCallbacks = components['schemas']['JobCallbacks'];
export type Template = components['schemas']['Template'];
export type TemplateList = components['schemas']['TemplateList'];
export type BatchCreated = components['schemas']['BatchCreated'];
export type BatchJob = components['schemas']['BatchJob'];
export type Batch = components['schemas']['Batch'];
export type BatchSummary = components['schemas']['BatchSummary'];
export type BatchList = components['schemas']['BatchList'];
export type ManifestEntry = components['schemas']['ManifestEntry'];
export type BatchManifest = components['schemas']['BatchManifest'];
export type ImageConfig = components['schemas']['ImageConfig'];
export type ImageConfigColor = components['schemas']['ImageConfig.Color'];
export type ImageConfigPosition = components['schemas']['ImageConfig.Position'];
export type ImageConfigPositionObject = components['schemas']['ImageConfig.PositionObject'];
export type ImageConfigImageRef = components['schemas']['ImageConfig.ImageRef'];
export type ImageConfigFontRef = components['schemas']['ImageConfig.FontRef'];
export type ImageConfigImageLayer = components['schemas']['ImageConfig.ImageLayer'];
export type VideoConfig = components['schemas']['VideoConfig'];
export type VideoConfig_1 = components['schemas']['VideoConfig.1'];
export type VideoConfig_3 = components['schemas']['VideoConfig.3'];
export type VideoConfig_8 = components['schemas']['VideoConfig.8'];
export type VideoConfig_10 = components['schemas']['VideoConfig.10'];
export type VideoConfigColor = components['schemas']['VideoConfig.Color'];
export type VideoConfigPosition = components['schemas']['VideoConfig.Position'];
export type VideoConfigPositionObject = components['schemas']['VideoConfig.PositionObject'];
export type VideoConfigImageRef = components['schemas']['VideoConfig.ImageRef'];
export type VideoConfigVideoRef = components['schemas']['VideoConfig.VideoRef'];
export type VideoConfigAudioRef = components['schemas']['VideoConfig.AudioRef'];
export type VideoConfigFontRef = components['schemas']['VideoConfig.FontRef'];
export type VideoConfigVideoPosition = components['schemas']['VideoConfig.VideoPosition'];
export type VideoConfigTransition = components['schemas']['VideoConfig.Transition'];
export type VideoConfigClip = components['schemas']['VideoConfig.Clip'];
export type VideoConfigVideoLayer = components['schemas']['VideoConfig.VideoLayer'];
export type VideoConfigGlobalLayer = components['schemas']['VideoConfig.GlobalLayer'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponsePaymentRequired = components['responses']['PaymentRequired'];
export type ResponseForbidden = components['responses']['Forbidden'];
export type ResponseNotFound = components['responses']['NotFound'];
export type ResponseConflict = components['responses']['Conflict'];
export type ResponseGone = components['responses']['Gone'];
export type ResponsePayloadTooLarge = components['responses']['PayloadTooLarge'];
export type ResponseUnsupportedMediaType = components['responses']['UnsupportedMediaType'];
export type ResponseRangeNotSatisfiable = components['responses']['RangeNotSatisfiable'];
export type ResponseUnprocessableMedia = components['responses']['UnprocessableMedia'];
export type ResponseTooManyRequests = components['responses']['TooManyRequests'];
export type ResponseInternalError = components['responses']['InternalError'];
export type ResponseBadGateway = components['responses']['BadGateway'];
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `status: healthy`, service name, version, environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Health"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                page?: string;
                limit?: string;
                /** @description PENDING, PROCESSING, COMPLETED, FAILED, CANCELLED (any letter case) */
                status?: string;
                /** @description IMAGE, VIDEO (any letter case) */
                type?: string;
                sortBy?: "createdAt" | "updatedAt" | "startedAt" | "completedAt";
                /** @description Jobs whose id, config or error message contains this text (ASCII case-insensitive) */
                search?: string;
                /** @description asc or desc (any letter case) */
                sortOrder?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `jobs` (list items, newest first by default) and `pagination` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key and body within 24 h answer the first result */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "image",
                 *       "config": {
                 *         "width": 640,
                 *         "height": 360,
                 *         "backgroundColor": "#1e90ff",
                 *         "layers": [
                 *           {
                 *             "type": "rectangle",
                 *             "x": 40,
                 *             "y": 40,
                 *             "width": 200,
                 *             "height": 120,
                 *             "fill": "#ffffff",
                 *             "borderRadius": 16
                 *           },
                 *           {
                 *             "type": "text",
                 *             "text": "Hello",
                 *             "x": 320,
                 *             "y": 280,
                 *             "fontSize": 40,
                 *             "color": "#ffffff",
                 *             "align": "center"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    type: "image";
                    config: components["schemas"]["ImageConfig"];
                    /**
                     * Format: uri
                     * @description Also deliver this job's render events here: signed with the account's job-callback secret (GET /api/v2/webhooks/job-callbacks), retried like webhook deliveries; https on a public address
                     */
                    webhookUrl?: string;
                    /** @description Your own JSON object (at most 4096 bytes as JSON), echoed on the job, in its events and webhook payloads */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Upload the outputs (and posters, thumbnails, captions) to your S3-compatible storage once the job completes */
                    destinations?: {
                        /** @description A storage connection of yours (stc_...) */
                        connectionId: string;
                        /** @description This job's key template, instead of the connection's (same variables) */
                        key?: string;
                    }[];
                } | {
                    /** @constant */
                    type: "video";
                    config: components["schemas"]["VideoConfig"];
                    /**
                     * Format: uri
                     * @description Also deliver this job's render events here: signed with the account's job-callback secret (GET /api/v2/webhooks/job-callbacks), retried like webhook deliveries; https on a public address
                     */
                    webhookUrl?: string;
                    /** @description Your own JSON object (at most 4096 bytes as JSON), echoed on the job, in its events and webhook payloads */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Upload the outputs (and posters, thumbnails, captions) to your S3-compatible storage once the job completes */
                    destinations?: {
                        /** @description A storage connection of yours (stc_...) */
                        connectionId: string;
                        /** @description This job's key template, instead of the connection's (same variables) */
                        key?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description `jobId`, `status: PENDING`, `type`, `estimatedTokens`, `createdAt`, `warnings` (`[{field, message, code}]`: properties accepted with no effect, code `IGNORED_PROPERTY`) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "jobId": "job_k2x7q9w3m1v8",
                     *         "status": "PENDING",
                     *         "type": "IMAGE",
                     *         "estimatedTokens": 4,
                     *         "createdAt": "2026-11-21T10:00:00.000Z",
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobCreated"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    validateJob: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "video",
                 *       "config": {
                 *         "width": 640,
                 *         "height": 360,
                 *         "fps": 25,
                 *         "defaults": {
                 *           "transition": {
                 *             "name": "fade",
                 *             "duration": 0.5
                 *           }
                 *         },
                 *         "clips": [
                 *           {
                 *             "duration": 2,
                 *             "layers": [
                 *               {
                 *                 "type": "title",
                 *                 "text": "First"
                 *               }
                 *             ]
                 *           },
                 *           {
                 *             "duration": 2,
                 *             "layers": [
                 *               {
                 *                 "type": "fill-color",
                 *                 "color": "#1e90ff"
                 *               },
                 *               {
                 *                 "type": "title",
                 *                 "text": "Second"
                 *               }
                 *             ]
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    type: "image";
                    config: components["schemas"]["ImageConfig"];
                    /**
                     * Format: uri
                     * @description Also deliver this job's render events here: signed with the account's job-callback secret (GET /api/v2/webhooks/job-callbacks), retried like webhook deliveries; https on a public address
                     */
                    webhookUrl?: string;
                    /** @description Your own JSON object (at most 4096 bytes as JSON), echoed on the job, in its events and webhook payloads */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Upload the outputs (and posters, thumbnails, captions) to your S3-compatible storage once the job completes */
                    destinations?: {
                        /** @description A storage connection of yours (stc_...) */
                        connectionId: string;
                        /** @description This job's key template, instead of the connection's (same variables) */
                        key?: string;
                    }[];
                } | {
                    /** @constant */
                    type: "video";
                    config: components["schemas"]["VideoConfig"];
                    /**
                     * Format: uri
                     * @description Also deliver this job's render events here: signed with the account's job-callback secret (GET /api/v2/webhooks/job-callbacks), retried like webhook deliveries; https on a public address
                     */
                    webhookUrl?: string;
                    /** @description Your own JSON object (at most 4096 bytes as JSON), echoed on the job, in its events and webhook payloads */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Upload the outputs (and posters, thumbnails, captions) to your S3-compatible storage once the job completes */
                    destinations?: {
                        /** @description A storage connection of yours (stc_...) */
                        connectionId: string;
                        /** @description This job's key template, instead of the connection's (same variables) */
                        key?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The validation result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "field": "config.width",
                     *             "message": "width must be at least 1",
                     *             "code": "VALIDATION_ERROR"
                     *           }
                     *         ],
                     *         "warnings": [
                     *           {
                     *             "field": "config.verbose",
                     *             "message": "an editly logging option with no effect here (job progress and errors come with the job)",
                     *             "code": "IGNORED_PROPERTY"
                     *           }
                     *         ],
                     *         "estimatedTokens": 0,
                     *         "detectedResources": []
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobValidation"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `total`, `totalTokensUsed`, `byStatus`, `byType` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobStats"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobDailyCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 30 entries, oldest first: `date`, `success`, `failed` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["DailyJobCounts"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description job_... */
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Job"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description job_... */
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `id`, `status: CANCELLED`, `updatedAt` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobCancelled"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    streamJobEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description job_... */
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["JobEvent"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key and body within 24 h answer the first result */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    /** @default 24 */
                    ttlHours?: number;
                };
            };
        };
        responses: {
            /** @description The stored file: `id`, `storageUrl` (use it as a layer's path), metadata */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["UploadedFile"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableMedia"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
        };
    };
    validateFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    /** @default 24 */
                    ttlHours?: number;
                };
            };
        };
        responses: {
            /** @description `validation` (isValid, the detected type, the reasons) and `uploadedFile` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["FileValidation"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    validateImageFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    /** @default 24 */
                    ttlHours?: number;
                };
            };
        };
        responses: {
            /** @description `validation` (isValid, the detected type, the reasons) and `uploadedFile` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["FileValidation"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    validateVideoFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    /** @default 24 */
                    ttlHours?: number;
                };
            };
        };
        responses: {
            /** @description `validation` (isValid, the detected type, the reasons) and `uploadedFile` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["FileValidation"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    validateAudioFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    /** @default 24 */
                    ttlHours?: number;
                };
            };
        };
        responses: {
            /** @description `validation` (isValid, the detected type, the reasons) and `uploadedFile` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["FileValidation"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getSupportedFileTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `categories` and `maxFileSize` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SupportedFileTypes"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listFiles: {
        parameters: {
            query?: {
                page?: string;
                /** @description Files per page, 1 to 100 (default 20) */
                per_page?: string;
                /** @description The same as per_page (JsonCut's name for it) */
                limit?: string;
                category?: "image" | "video" | "audio" | "font" | "shader" | "captions" | "unknown";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `files`, newest first, with `total`, `page`, `per_page` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["FileList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["MediaFile"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `id`, `deleted` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Deleted"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getFileMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dimensions, duration, codecs as measured at upload */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["FileMetadata"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    downloadFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, with its Content-Type, Content-Length and Content-Disposition */
            200: {
                headers: {
                    /** @description The stored object's entity tag (If-None-Match, If-Range) */
                    ETag?: string;
                    /** @description `bytes`: single byte ranges are served */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description The requested byte range (`Range: bytes=start-end`), with its Content-Range */
            206: {
                headers: {
                    /** @description The stored object's entity tag (If-None-Match, If-Range) */
                    ETag?: string;
                    /** @description `bytes`: single byte ranges are served */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Not modified (`If-None-Match` matched the ETag) */
            304: {
                headers: {
                    /** @description The stored object's entity tag (If-None-Match, If-Range) */
                    ETag?: string;
                    /** @description `bytes`: single byte ranges are served */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            416: components["responses"]["RangeNotSatisfiable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    headFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, with its Content-Type, Content-Length and Content-Disposition */
            200: {
                headers: {
                    /** @description The stored object's entity tag (If-None-Match, If-Range) */
                    ETag?: string;
                    /** @description `bytes`: single byte ranges are served */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description The requested byte range (`Range: bytes=start-end`), with its Content-Range */
            206: {
                headers: {
                    /** @description The stored object's entity tag (If-None-Match, If-Range) */
                    ETag?: string;
                    /** @description `bytes`: single byte ranges are served */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Not modified (`If-None-Match` matched the ETag) */
            304: {
                headers: {
                    /** @description The stored object's entity tag (If-None-Match, If-Range) */
                    ETag?: string;
                    /** @description `bytes`: single byte ranges are served */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            416: components["responses"]["RangeNotSatisfiable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createDownloadLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "expiresIn": 3600
                 *     }
                 */
                "application/json": {
                    /** @default 3600 */
                    expiresIn?: number;
                };
            };
        };
        responses: {
            /** @description `url`, `expiresAt` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "url": "http://127.0.0.1:8787/api/v1/files/hk2x7q9w3m1v8tz4dse0a1b2c/download?expires=1795264800&signature=3f9a",
                     *         "expiresAt": "2026-11-21T11:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["DownloadLink"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createPublicLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's id */
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @default 3600 */
                    expiresIn?: number;
                };
            };
        };
        responses: {
            /** @description `url`, `expiresAt` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["DownloadLink"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    measureVideoDuration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                } | {
                    url: string;
                };
            };
        };
        responses: {
            /** @description `durationMs`, `durationFormatted`, `source`, `originalPath` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["DurationResult"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableMedia"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
        };
    };
    measureVideoDurations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    files: (string | ({
                        path: string;
                    } | {
                        url: string;
                    }))[];
                };
            };
        };
        responses: {
            /** @description One result per input, in order, and a `summary` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BulkDurationResult"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    measureAudioDuration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                } | {
                    url: string;
                };
            };
        };
        responses: {
            /** @description `durationMs`, `durationFormatted`, `source`, `originalPath` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["DurationResult"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableMedia"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
        };
    };
    measureAudioDurations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    files: (string | ({
                        path: string;
                    } | {
                        url: string;
                    }))[];
                };
            };
        };
        responses: {
            /** @description One result per input, in order, and a `summary` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BulkDurationResult"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listConfigSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `schemas`: `name`, `description`, `url`, `usage` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SchemaList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    getConfigSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: "image" | "video";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `schema` (JSON Schema draft-07), `description`, `version` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ConfigSchema"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    getCallbackHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `status`, `timestamp`, `webhookEndpoint` (the callback's path) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["CallbackHealth"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    name?: string;
                    consent: {
                        /** @constant */
                        termsAccepted: true;
                        /** @constant */
                        termsVersion: "2026-10-12";
                        marketingAccepted: boolean;
                    };
                    hcaptchaToken?: string;
                };
            };
        };
        responses: {
            /** @description Always the same answer, whether or not the address has an account */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["CodeSent"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    hcaptchaToken?: string;
                };
            };
        };
        responses: {
            /** @description Always the same answer, whether or not the address has an account */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["CodeSent"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    verifyCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description `session` (`token`, `expiresAt`) and the account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SignedIn"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `loggedOut` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["LoggedOut"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getSignInOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `termsVersion`, `captcha` (null when off), `devOutbox` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SignInOptions"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    getBrowserSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account, `csrfToken`, `expiresAt` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BrowserSession"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    openBrowserSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description The account, `csrfToken`, `expiresAt` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BrowserSession"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    closeBrowserSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `loggedOut` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["LoggedOut"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Account"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    /** Format: email */
                    email?: string;
                    hcaptchaToken?: string;
                };
            };
        };
        responses: {
            /** @description The account, and `emailChange` when a code went to a new address */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["AccountUpdated"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    confirmEmailChange: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description The account with its new address */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["AccountUpdated"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each key's id, name, prefix, permissions, scopes, dates (never the key) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ApiKeyList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    expiresAt?: string | null;
                    permissions: {
                        /** @enum {string} */
                        resource: "media" | "jobs";
                        /** @enum {string} */
                        action: "read" | "full";
                    }[];
                    scopes?: ("renders:create" | "renders:read" | "operations:read" | "operations:cancel" | "templates:read" | "templates:write" | "templates:bulk")[];
                };
            };
        };
        responses: {
            /** @description `key` (shown once) and the key's record */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["CreatedApiKey"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `id`, `deleted` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Deleted"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `plans`: id, name, price, monthly tokens, concurrent jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["PlanList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plan, monthly allowance left, prepaid tokens, owed tokens, period end, pending and last change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["CurrentPlan"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                page?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `entries` (every token movement) and `pagination` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["LedgerPage"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    changePlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    planId: string;
                };
            };
        };
        responses: {
            /** @description `unchanged`, `scheduled` (with `pendingPlan`) or `payment_required` (with `checkout`) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["PlanChangeResult"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
        };
    };
    buyTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tokens: number;
                };
            };
        };
        responses: {
            /** @description `paymentId`, `checkoutUrl`; the tokens arrive when the payment is confirmed */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Checkout"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status (`pending`, `paid`, `expired`, `refunded`, `disputed`), amount, what it buys, `tokensRevoked` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Payment"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints, without secrets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookEndpointList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    url: string;
                    eventTypes: ("render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed" | "render.delivered" | "render.delivery_failed")[];
                    /** @default true */
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description The endpoint and its `secret` (shown once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookEndpointCreated"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJobCallbacks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job-callback endpoint with its secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobCallbacks"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, without its secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookEndpoint"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `id`, `deleted` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Deleted"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    url?: string;
                    eventTypes?: ("render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed" | "render.delivered" | "render.delivery_failed")[];
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookEndpoint"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    sendWebhookTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @default webhook.test
                     * @enum {string}
                     */
                    eventType?: "webhook.test" | "render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed" | "render.delivered" | "render.delivery_failed";
                    data?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The queued delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["QueuedTestEvent"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    graceSeconds?: number;
                };
            };
        };
        responses: {
            /** @description The new `secret` (shown once) and when the old one stops */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["RotatedSecret"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "delivered" | "dead_letter";
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookDeliveryList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery: status, attempts (responseStatus, duration, error, time) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookDeliveryDetail"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `replayed` and the delivery's status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ReplayResult"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listStorageConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connections, without secrets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["StorageConnectionList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createStorageConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "renders bucket",
                 *       "endpoint": "https://s3.eu-west-1.amazonaws.com",
                 *       "region": "eu-west-1",
                 *       "bucket": "my-renders",
                 *       "accessKeyId": "AKIAIOSFODNN7EXAMPLE",
                 *       "secretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                 *       "keyTemplate": "renders/{date}/{jobId}.{ext}"
                 *     }
                 */
                "application/json": {
                    name: string;
                    /** @description The service's origin, e.g. https://s3.eu-west-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com, https://storage.googleapis.com (https only; no path) */
                    endpoint: string;
                    /**
                     * @description The signing region: AWS's bucket region, `auto` for R2 (default us-east-1)
                     * @default us-east-1
                     */
                    region?: string;
                    bucket: string;
                    /**
                     * @description `path`: <endpoint>/<bucket>/<key> (default); `virtual`: <bucket>.<endpoint host>/<key>
                     * @default path
                     * @enum {string}
                     */
                    addressing?: "path" | "virtual";
                    accessKeyId: string;
                    /** @description Stored sealed, used only to sign uploads, never answered */
                    secretAccessKey: string;
                    /**
                     * @description The object key of a job's output: {jobId}, {date}, {ext}, {type}, {metadata.<name>} (default {jobId}.{ext})
                     * @default {jobId}.{ext}
                     */
                    keyTemplate?: string;
                };
            };
        };
        responses: {
            /** @description The connection (never its secret) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["StorageConnection"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getStorageConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection, without its secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["StorageConnection"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteStorageConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `id`, `deleted` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Deleted"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `templates`, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["TemplateList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    type: "image" | "video";
                    config: {
                        [key: string]: unknown;
                    };
                    /** @default [] */
                    variables?: {
                        name: string;
                        /** @enum {string} */
                        type: "string" | "number" | "colour" | "file";
                        /** @default true */
                        required?: boolean;
                        default?: string | number;
                    }[];
                };
            };
        };
        responses: {
            /** @description The template with its variable schema */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Template"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description tpl_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Template"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    replaceTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description tpl_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    type: "image" | "video";
                    config: {
                        [key: string]: unknown;
                    };
                    /** @default [] */
                    variables?: {
                        name: string;
                        /** @enum {string} */
                        type: "string" | "number" | "colour" | "file";
                        /** @default true */
                        required?: boolean;
                        default?: string | number;
                    }[];
                };
            };
        };
        responses: {
            /** @description The template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Template"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description tpl_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `id`, `deleted` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Deleted"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    renderTemplate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key and body within 24 h answer the first result */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description tpl_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Each variable's value, as a JSON batch row gives it; left out: its default
                     * @default {}
                     */
                    variables?: {
                        [key: string]: unknown;
                    };
                    /**
                     * Format: uri
                     * @description Also deliver this job's render events here: signed with the account's job-callback secret (GET /api/v2/webhooks/job-callbacks), retried like webhook deliveries; https on a public address
                     */
                    webhookUrl?: string;
                    /** @description Your own JSON object (at most 4096 bytes as JSON), echoed on the job, in its events and webhook payloads */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Upload the outputs (and posters, thumbnails, captions) to your S3-compatible storage once the job completes */
                    destinations?: {
                        /** @description A storage connection of yours (stc_...) */
                        connectionId: string;
                        /** @description This job's key template, instead of the connection's (same variables) */
                        key?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description `jobId`, `status: PENDING`, `type`, `estimatedTokens`, `createdAt`, `warnings` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["JobCreated"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createBatch: {
        parameters: {
            query?: {
                mode?: "valid-only" | "all-or-nothing";
                nameColumn?: string;
            };
            header?: {
                /** @description Makes a retry safe: the same key and body within 24 h answer the first result */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description tpl_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    rows: {
                        [key: string]: unknown;
                    }[];
                    /**
                     * @default all-or-nothing
                     * @enum {string}
                     */
                    mode?: "valid-only" | "all-or-nothing";
                    nameColumn?: string;
                };
                "text/csv": string;
            };
        };
        responses: {
            /** @description `batchId`, `accepted`, `rejected` rows with their errors, `estimatedTokens` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BatchCreated"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listBatches: {
        parameters: {
            query?: {
                page?: string;
                limit?: string;
                /** @description Only the batches of this template (tpl_...) */
                templateId?: string;
                /** @description RUNNING, COMPLETED, CANCELLED (any letter case) */
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `batches` and `pagination` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BatchList"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description bat_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Batch"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description bat_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Batch"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    downloadBatchOutput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description bat_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A ZIP archive, streamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getBatchManifest: {
        parameters: {
            query?: {
                format?: "json" | "csv";
            };
            header?: never;
            path: {
                /** @description bat_... */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `entries` (JSON), or the same as CSV */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BatchManifest"];
                        /** @description A sentence for people, where the answer has one */
                        message?: string;
                    };
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
}
