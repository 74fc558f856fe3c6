/**
 * Errors the renderer's domain code throws. They know nothing of HTTP; app.ts maps them to status codes.
 */

/** The request body exceeded the route's size limit. */
export class PayloadTooLarge extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`Body exceeds the limit of ${limitBytes} bytes`);
    this.name = "PayloadTooLarge";
    this.limitBytes = limitBytes;
  }
}

/** The input is not media the tools can read (ffprobe/ffmpeg rejected it). */
export class UnprocessableMedia extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnprocessableMedia";
  }
}

/** The request itself is malformed (bad JSON, missing field). */
export class BadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadRequest";
  }
}
