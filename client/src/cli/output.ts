/** What the mrs CLI says: a command's answer as JSON on stdout, a failure on stderr with its exit code. */
import { ApiError } from "../index.ts";
import { UsageError, usageError } from "./command-line.ts";

/** A command's answer, as indented JSON. */
export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Says why a command failed and answers its exit code: 2 for a usage mistake, 1 otherwise (the service's error
 * with each field it names, or the error's message).
 */
export const reportFailure = (e: unknown): number => {
  if (e instanceof UsageError) return usageError(e.message);
  if (e instanceof ApiError) {
    process.stderr.write(`error ${e.status}: ${e.message}\n`);
    for (const error of e.details?.errors ?? [])
      process.stderr.write(`  ${error.field ?? ""}: ${error.message}\n`);
  } else process.stderr.write(`error: ${(e as Error).message}\n`);
  return 1;
};
