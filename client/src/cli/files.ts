/** The file commands: `files [list | upload <file> [--ttl <hours>] | delete <fileId>]`. */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { data, type Client } from "../index.ts";
import type { CommandGroup } from "./command-line.ts";
import { print } from "./output.ts";

const listFiles = async (client: Client) => {
  print(await data(client.api.GET("/api/v1/files")));
  return 0;
};

const uploadFile = async (client: Client, file: string, ttl: string | undefined) => {
  print(await client.upload(readFileSync(file), basename(file), { ttlHours: ttl ? Number(ttl) : undefined }));
  return 0;
};

const deleteFile = async (client: Client, fileId: string) => {
  print(await data(client.api.DELETE("/api/v1/files/{fileId}", { params: { path: { fileId } } })));
  return 0;
};

/** `mrs files [list | upload <file> [--ttl <hours>] | delete <fileId>]`. */
export const filesCommand: CommandGroup = async (client, sub, arg, values) => {
  if (!sub || sub === "list") return listFiles(client);
  if (sub === "upload" && arg) return uploadFile(client, arg, values.ttl);
  if (sub === "delete" && arg) return deleteFile(client, arg);
  return undefined;
};
