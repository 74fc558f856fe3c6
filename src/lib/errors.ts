/**
 * Domain errors. They know nothing of HTTP: `src/lib/on-error.ts` maps each to a status and the
 * spec's envelope. Throw these from verbs; never build error responses in domain code.
 */
import type { FieldError } from "@media-render/contract/field-errors";

export type { FieldError };

export abstract class DomainError extends Error {
  /** Extra data for `details` (beyond `errors`). */
  readonly details?: Record<string, unknown>;
  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** The input is malformed or violates a schema. */
export class ValidationFailed extends DomainError {
  readonly errors: FieldError[];
  constructor(errors: FieldError[], message = "Validation failed") {
    super(message, { errors });
    this.errors = errors;
  }
}

export class Unauthorized extends DomainError {
  constructor(message = "Unauthorized") {
    super(message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = "Insufficient permissions", details?: Record<string, unknown>) {
    super(message, details);
  }
}

/** A resource that does not exist or belongs to another account (never distinguish the two). */
export class NotFound extends DomainError {
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** The resource existed but is gone for good (an expired job output). */
export class Gone extends DomainError {}

/** The request conflicts with the current state of another resource (e.g. an e-mail address in use). */
export class Conflict extends DomainError {}

/** The resource exists but is not in a state that allows the operation (e.g. cancelling a finished job). */
export class InvalidState extends DomainError {}

export class InsufficientTokens extends DomainError {
  /** `owed`: tokens of a refunded or disputed purchase already spent; nothing can be spent until they are repaid. */
  constructor(required: number, available: number, owed = 0) {
    super(
      owed > 0
        ? `Insufficient tokens: the account owes ${owed} tokens of a refunded or disputed purchase; ` +
            "work starts again once a purchase or the next monthly allowance repays them"
        : "Insufficient tokens",
      owed > 0 ? { required, available: 0, owed } : { required, available },
    );
  }
}

/** A feature the caller's plan does not include (autoSubtitles on the free plan); `errors` names the field. */
export class PlanRequired extends DomainError {
  constructor(message: string, errors: FieldError[], details: Record<string, unknown> = {}) {
    super(message, { errors, ...details });
  }
}

export class ConcurrencyLimit extends DomainError {
  constructor(activeJobs: number, maxAllowed: number) {
    super("Too many concurrent jobs", { activeJobs, maxAllowed });
  }
}

/**
 * The account's video jobs that failed by their own fault took more renderer time over the last day than it may
 * use (src/jobs/render-quota.ts): no new video job until `retryAfter` seconds from now.
 */
export class FailedRenderQuota extends DomainError {
  constructor(usedSeconds: number, maxSeconds: number, retryAfterSeconds: number) {
    super(
      `Your video jobs that failed used ${usedSeconds} s of renderer time in the last 24 hours (at most ${maxSeconds} s); new video jobs are refused until some of it is a day old`,
      { failedRenderSeconds: usedSeconds, maxFailedRenderSeconds: maxSeconds, retryAfter: retryAfterSeconds },
    );
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number) {
    super("Too many requests, please try again later", { retryAfter: retryAfterSeconds });
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(limitBytes: number) {
    super(`Request body too large (limit ${limitBytes} bytes)`, { limitBytes });
  }
}

export class UnsupportedMediaType extends DomainError {}

/** A render ran past its deadline (derived from its size): permanent, never retried. */
export class RenderDeadlineExceeded extends DomainError {
  constructor(seconds: number) {
    super(`Rendering took longer than its deadline of ${seconds} s and was stopped; no tokens were charged`);
  }
}

/** A media file exists but cannot be decoded or probed. */
export class UnprocessableMedia extends DomainError {}

/** A dependency (renderer, browser, storage) failed or is unreachable. */
export class UpstreamFailure extends DomainError {}

/** The renderer could not be reached (refused, timed out, 5xx): the job waits on its queue and is offered again. */
export class RendererUnreachable extends UpstreamFailure {}

/**
 * The renderer refused a request the Worker built (400: the contract says it is malformed): every renderer would
 * refuse it the same way, so it is a defect of ours, not a fault to retry.
 */
export class RendererRefused extends UpstreamFailure {}

/** The renderer's queue (or the account's share of it) is full: offer the job again after `retryAfterSeconds`. */
export class RendererBusy extends UpstreamFailure {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message, { retryAfter: retryAfterSeconds });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
