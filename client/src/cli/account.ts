/** The account commands: `callbacks` (the signing secret of job callbacks) and `key` (what is behind the key). */
import { data } from "../index.ts";
import type { CommandGroup } from "./command-line.ts";
import { print } from "./output.ts";

/** `mrs callbacks`: the signing secret of job callbacks (and their log's id). */
export const callbacksCommand: CommandGroup = async (client) => {
  print(await data(client.api.GET("/api/v2/webhooks/job-callbacks")));
  return 0;
};

/** `mrs key`: the account, plan and balance behind the key. */
export const keyCommand: CommandGroup = async (client) => {
  print({
    account: await data(client.api.GET("/api/v1/account")),
    usage: await data(client.api.GET("/api/v1/billing/usage")),
  });
  return 0;
};
