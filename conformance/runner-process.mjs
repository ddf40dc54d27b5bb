// What both conformance entry points (run.mjs for the client scenarios, serve.mjs for the server scenarios) need
// around the official runner: where it is, running a process to completion, and reporting.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node22PackageDirectory } from '../tools/node22.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The released conformance runner, installed with the Node 22 tools. */
export const RUNNER = join(
  node22PackageDirectory,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);

/** Runs `command` from the project folder; resolves with its exit code and stdout and stderr together. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ code: -1, output: `${output}\n${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** The runner's output under a scenario's line. */
export function indent(text) {
  return `${text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}\n`;
}

/** Runs the script's `main` and exits with its code; a thrown error is one line on stderr and exit code 1. */
export function runMain(main) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
