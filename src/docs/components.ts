/**
 * The named schemas of the OpenAPI document (`components.schemas`), by the name a generated client calls them:
 * each the valibot schema the answering serializer or verb is typed by. Wherever one of them appears in an answer
 * (by identity), the document refers to it by name instead of repeating it.
 */
import type * as v from "valibot";
import { Account, AccountUpdated, CodeSent, LoggedOut, SignedIn } from "../accounts/schemas";
import {
  Checkout,
  CheckoutReturn,
  CurrentUsage,
  LedgerPage,
  Payment,
  Plan,
  PlanChange,
  PlanList,
  TokenUsage,
} from "../billing/schemas";
import { FieldError } from "../contract/field-errors";
import {
  DownloadLink,
  FileList,
  FileMetadata,
  FileValidation,
  MediaFile,
  UploadedFile,
} from "../files/serialize";
import { CallbackHealth, Health } from "../health/schemas";
import {
  Captions,
  DailyJobCounts,
  Job,
  JobCancelled,
  JobCreated,
  JobList,
  JobListItem,
  JobEvent,
  JobProgressEvent,
  JobStats,
  JobValidation,
  Pagination,
} from "../jobs/schemas";
import { ApiKey, ApiKeyList, CreatedApiKey } from "../keys/schemas";
import { Deleted, ErrorBody } from "../lib/envelope";
import { ConfigSchema, SchemaList } from "../schemas/serialize";
import {
  Batch,
  BatchCreated,
  BatchJob,
  BatchManifest,
  ManifestEntry,
  Template,
  TemplateList,
} from "../templates/schemas";
import { BulkDurationResult, DurationResult } from "../tools/schemas";
import {
  QueuedTestEvent,
  ReplayResult,
  RotatedSecret,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
} from "../webhooks/schemas";

export const SCHEMA_COMPONENTS: Record<string, v.GenericSchema> = {
  ErrorBody,
  FieldError,
  Deleted,
  Job,
  JobListItem,
  JobList,
  Pagination,
  Captions,
  JobCreated,
  JobValidation,
  JobCancelled,
  JobStats,
  DailyJobCounts,
  JobEvent,
  JobProgressEvent,
  UploadedFile,
  MediaFile,
  FileList,
  FileMetadata,
  FileValidation,
  DownloadLink,
  DurationResult,
  BulkDurationResult,
  SchemaList,
  ConfigSchema,
  Health,
  CallbackHealth,
  Account,
  CodeSent,
  SignedIn,
  AccountUpdated,
  LoggedOut,
  ApiKey,
  ApiKeyList,
  CreatedApiKey,
  Plan,
  PlanList,
  TokenUsage,
  CurrentUsage,
  LedgerPage,
  PlanChange,
  Checkout,
  Payment,
  CheckoutReturn,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointCreated,
  RotatedSecret,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookAttempt,
  WebhookDeliveryDetail,
  QueuedTestEvent,
  ReplayResult,
  Template,
  TemplateList,
  BatchCreated,
  BatchJob,
  Batch,
  ManifestEntry,
  BatchManifest,
};
