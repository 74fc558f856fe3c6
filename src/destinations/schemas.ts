/**
 * Request bodies and answers of output destinations: the storage connections of /api/v2/storage-connections, a
 * job's `destinations` list, and each delivery's result as the job shows it (valibot; field errors reach the client
 * in the envelope).
 */
import * as v from "valibot";
import { ADDRESSING_STYLES, DELIVERY_STATES } from "../db/schema.ts";
import { Timestamp } from "../lib/envelope.ts";
import { DEFAULT_KEY_TEMPLATE, templateRefusal } from "./key-template.ts";
import { MAX_DESTINATIONS_PER_JOB } from "./limits.ts";

const text = (name: string, max: number) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.trim(),
    v.minLength(1, `${name} must not be empty`),
    v.maxLength(max, `${name} must be at most ${max} characters`),
  );

const KeyTemplate = (name: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.rawCheck(({ dataset, addIssue }) => {
      const refusal = dataset.typed ? templateRefusal(dataset.value) : null;
      if (refusal) addIssue({ message: `${name} ${refusal}` });
    }),
  );

export const CreateConnectionBody = v.strictObject({
  name: text("name", 100),
  endpoint: v.pipe(
    text("endpoint", 2048),
    v.description(
      "The service's origin, e.g. https://s3.eu-west-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com, https://storage.googleapis.com (https only; no path)",
    ),
  ),
  region: v.optional(
    v.pipe(
      text("region", 64),
      v.regex(/^[a-z0-9-]+$/, "region must be lower-case letters, digits and -"),
      v.description("The signing region: AWS's bucket region, `auto` for R2 (default us-east-1)"),
    ),
    "us-east-1",
  ),
  bucket: v.pipe(
    text("bucket", 63),
    v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "bucket must be a valid bucket name (3-63 of a-z 0-9 . -)"),
  ),
  addressing: v.optional(
    v.pipe(
      v.picklist(ADDRESSING_STYLES, `addressing must be one of ${ADDRESSING_STYLES.join(", ")}`),
      v.description("`path`: <endpoint>/<bucket>/<key> (default); `virtual`: <bucket>.<endpoint host>/<key>"),
    ),
    "path",
  ),
  accessKeyId: text("accessKeyId", 128),
  secretAccessKey: v.pipe(
    v.string("secretAccessKey must be a string"),
    v.minLength(1, "secretAccessKey must not be empty"),
    v.maxLength(256, "secretAccessKey must be at most 256 characters"),
    v.description("Stored sealed, used only to sign uploads, never answered"),
  ),
  keyTemplate: v.optional(
    v.pipe(
      KeyTemplate("keyTemplate"),
      v.description(
        "The object key of a job's output: {jobId}, {date}, {ext}, {type}, {metadata.<name>} (default {jobId}.{ext})",
      ),
    ),
    DEFAULT_KEY_TEMPLATE,
  ),
});
export type CreateConnectionBody = v.InferOutput<typeof CreateConnectionBody>;

/** A job's `destinations`: where its outputs go once it completes. */
export const Destinations = v.pipe(
  v.array(
    v.strictObject({
      connectionId: v.pipe(
        text("connectionId", 64),
        v.description("A storage connection of yours (stc_...)"),
      ),
      key: v.optional(
        v.pipe(
          KeyTemplate("key"),
          v.description("This job's key template, instead of the connection's (same variables)"),
        ),
      ),
    }),
    "destinations must be an array",
  ),
  v.maxLength(MAX_DESTINATIONS_PER_JOB, `destinations may list at most ${MAX_DESTINATIONS_PER_JOB}`),
  v.description(
    "Upload the outputs (and posters, thumbnails, captions) to your S3-compatible storage once the job completes",
  ),
);
export type Destinations = v.InferOutput<typeof Destinations>;

/** A storage connection, never with its secret. */
export const StorageConnection = v.object({
  id: v.string(),
  name: v.string(),
  endpoint: v.string(),
  region: v.string(),
  bucket: v.string(),
  addressing: v.picklist(ADDRESSING_STYLES),
  accessKeyId: v.string(),
  keyTemplate: v.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type StorageConnection = v.InferOutput<typeof StorageConnection>;

export const StorageConnectionList = v.array(StorageConnection);

const DeliveredFile = v.object({
  name: v.pipe(
    v.string(),
    v.description("`output`, or the suffix of another file of the job (`.poster.png`, `.captions.vtt`)"),
  ),
  key: v.string(),
  contentType: v.string(),
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  etag: v.string(),
});

/** One destination of a job and what became of it. */
export const Delivery = v.object({
  connectionId: v.pipe(v.nullable(v.string()), v.description("Null once the connection was deleted")),
  bucket: v.string(),
  key: v.pipe(v.string(), v.description("The output's object key")),
  status: v.pipe(
    v.picklist(DELIVERY_STATES),
    v.description(
      "waiting (for the job), pending (an attempt is due), delivering, delivered, failed, skipped (the job did not complete)",
    ),
  ),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  error: v.pipe(v.nullable(v.string()), v.description("The last attempt's error")),
  files: v.pipe(v.array(DeliveredFile), v.description("The files uploaded so far")),
  nextAttemptAt: v.nullable(Timestamp),
  deliveredAt: v.nullable(Timestamp),
});
export type Delivery = v.InferOutput<typeof Delivery>;

export const DeliveryList = v.pipe(
  v.array(Delivery),
  v.description("Only for a job created with destinations: one entry per destination, in order"),
);
