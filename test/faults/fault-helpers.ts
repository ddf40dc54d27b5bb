/**
 * What the fault tests share: hosts with a fresh state folder that are always closed, the fault fixtures'
 * paths, waiting for something to become true, reading the fixtures' event logs, and finding processes by a
 * marker on their command line (to count what is left behind).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostConfig } from '../../src/config/types.js';
import { createHost, type Host, type HostOptions } from '../../src/host/create-host.js';
import type { ToolResult } from '../../src/providers/types.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';

/** A script in test/fixtures/faults/. */
export function faultFixture(name: string): string {
  return bundledFixture(fileURLToPath(new URL(`../fixtures/faults/${name}`, import.meta.url)));
}

export function freshDirectory(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

const openHosts: Host[] = [];

/** A host on `config` with a fresh state folder; closed by {@link closeHosts} (call it in afterEach). */
export async function openFaultHost(config: HostConfig, options: Omit<HostOptions, 'config'> = {}): Promise<Host> {
  const host = await createHost({ stateDir: freshDirectory('mcp-host-faults-state-'), ...options, config });
  openHosts.push(host);
  return host;
}

export async function closeHosts(): Promise<void> {
  await Promise.allSettled(openHosts.splice(0).map((host) => host.close()));
}

/** The text parts of a tool result, joined. */
export function resultText(result: Pick<ToolResult, 'content'>): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.mimeType}]`)).join('\n');
}

export { waitUntil } from '../helpers/wait-until.js';

/** The lines of a fixture's EVENT_LOG file (empty until it exists). */
export function eventLines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  args: string;
}

/** Every live (non-zombie) process, from `ps`. */
export function listProcesses(): Promise<ProcessEntry[]> {
  return new Promise((resolve, reject) => {
    execFile('ps', ['-e', '-o', 'pid=,ppid=,pgid=,stat=,args='], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) {
        reject(error);
        return;
      }
      const entries: ProcessEntry[] = [];
      for (const line of stdout.split('\n')) {
        const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
        if (!match || match[4]!.startsWith('Z')) continue;
        entries.push({
          pid: Number(match[1]),
          ppid: Number(match[2]),
          pgid: Number(match[3]),
          state: match[4]!,
          args: match[5]!,
        });
      }
      resolve(entries);
    });
  });
}

/** Live processes whose command line contains `marker`. */
export async function processesWith(marker: string): Promise<ProcessEntry[]> {
  return (await listProcesses()).filter((entry) => entry.args.includes(marker) && !entry.args.startsWith('ps '));
}

/** A word unlikely to appear on any other command line. */
export function uniqueMarker(label: string): string {
  return `${label}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Ends processes a test started, by pid, ignoring those already gone. */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
