/**
 * The bench server over stdio: `node bench/servers/stdio-server.mjs [name] [readyAfterMs]`.
 * With `readyAfterMs` the server starts serving no sooner than that long after its process started,
 * like a server that first opens a database or is fetched by `npx`: start-up spent waiting rather
 * than computing. Module loading counts towards the wait.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createBenchServer } from './bench-tools.mjs';

const name = process.argv[2] ?? 'bench';
const readyAfterMs = Number(process.argv[3] ?? 0);
const remainingMs = readyAfterMs - performance.now();
if (remainingMs > 0) await delay(remainingMs);
await createBenchServer(name).connect(new StdioServerTransport());
