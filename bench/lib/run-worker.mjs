/**
 * Runs one measurement in a child process of its own (fresh heap, no JIT or GC state from another
 * subject) and returns what it reported. A worker reports by printing one line `RESULT <json>`;
 * anything else it prints is kept for the error message should it fail.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectDirectory, workersDirectory } from './paths.mjs';

const RESULT_PREFIX = 'RESULT ';

/**
 * @param {string} nodeBinary the Node executable to run the worker with
 * @param {string} worker file name under bench/workers/
 * @param {object} parameters handed to the worker as JSON in argv[2]
 * @param {{ nodeFlags?: string[], timeoutMs?: number }} options
 */
export function runWorker(nodeBinary, worker, parameters, options = {}) {
  const args = [...(options.nodeFlags ?? []), join(workersDirectory, worker), JSON.stringify(parameters)];
  const timeoutMs = options.timeoutMs ?? 180_000;
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBinary, args, { cwd: projectDirectory, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8_000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`benchmark worker ${worker} ${JSON.stringify(parameters)} took over ${timeoutMs} ms; stopped`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start benchmark worker ${worker} with ${nodeBinary}: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout
        .split('\n')
        .reverse()
        .find((candidate) => candidate.startsWith(RESULT_PREFIX));
      if (code === 0 && line) {
        resolve(JSON.parse(line.slice(RESULT_PREFIX.length)));
        return;
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(
        new Error(
          `benchmark worker ${worker} ${JSON.stringify(parameters)} ${how} without a result.\nstderr:\n${stderr}\nstdout tail:\n${stdout.slice(-2_000)}`,
        ),
      );
    });
  });
}

/** Called by a worker to hand its result back. */
export function reportResult(result) {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** A worker's parameters (argv[2]). */
export function workerParameters() {
  const text = process.argv[2];
  if (!text) throw new Error('a benchmark worker takes its parameters as JSON in its first argument');
  return JSON.parse(text);
}
