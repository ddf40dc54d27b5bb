/**
 * A client of the built CLI's `mcp-host serve` that keeps the log messages it hears, in front of a config of fixture
 * servers written in a folder of its own: `marker` is where crash-mid-call.mjs looks for the file whose absence has
 * it exit in the middle of a call.
 */
import { join } from 'node:path';
import type { Client, LoggingMessageNotification } from '@modelcontextprotocol/client';
import { connectHttpGatewayClient } from '../helpers/gateway-client.js';
import { temporaryDirectory } from '../helpers/project.js';

export interface ServedClient {
  client: Client;
  logs: LoggingMessageNotification['params'][];
  marker: string;
  close(): Promise<void>;
}

/** Over Streamable HTTP: `clientOf` makes the client, keeping what it hears in `logs`; `configIn` writes the config. */
export async function servedOverHttp(
  directoryPrefix: string,
  clientOf: (logs: ServedClient['logs']) => Client,
  configIn: (directory: string) => Promise<string>,
): Promise<ServedClient> {
  const directory = await temporaryDirectory(directoryPrefix);
  const logs: ServedClient['logs'] = [];
  const client = clientOf(logs);
  const { close } = await connectHttpGatewayClient(client, await configIn(directory), directory);
  return { client, logs, marker: join(directory, 'exited-once'), close };
}
