/**
 * The bench server over stdio: `node bench/servers/stdio-server.mjs [name] [startDelayMs]`.
 * `startDelayMs` makes the server wait before it starts serving, like a server that first opens a
 * database or fetches something: start-up that waits rather than computes.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createBenchServer } from './bench-tools.mjs';

const name = process.argv[2] ?? 'bench';
const startDelayMs = Number(process.argv[3] ?? 0);
if (startDelayMs > 0) await delay(startDelayMs);
await createBenchServer(name).connect(new StdioServerTransport());
