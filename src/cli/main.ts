#!/usr/bin/env node
/** The `mcp-host` command line: argv → command → host. Display only; no host logic lives here. */
import { runCommandLine } from './command-line.js';
import { flushOutput, treatClosedPipesAsEnd } from './output.js';

treatClosedPipesAsEnd();
process.exitCode = await runCommandLine(process.argv);
// No process.exit: output still queued for a slow pipe would be lost. Node exits once it is written and every
// server is closed.
await flushOutput();
