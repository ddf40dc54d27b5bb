/**
 * A host killed mid-write must leave an audit log whose complete lines all parse. This runs the real sink in a
 * child process appending as fast as it can, kills it with SIGKILL (no chance to clean up), then checks the file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlAuditLog } from '../../src/audit/jsonl-audit-log.js';
import { readAuditLog } from '../../src/audit/read-audit-log.js';
import { repoRoot } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

/** The sink's own source (and what it imports), compiled to plain JavaScript the child can import without a build. */
function compileSink(into: string): string {
  mkdirSync(into, { recursive: true });
  writeFileSync(path.join(into, 'package.json'), '{"type":"module"}');
  // Follows the sink's relative imports, so a new module it needs is compiled too.
  const pending = ['audit/jsonl-audit-log'];
  const done = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (done.has(name)) continue;
    done.add(name);
    const source = readFileSync(path.join(repoRoot, 'src', `${name}.ts`), 'utf8');
    for (const [, target] of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      // Type-only imports are compiled too (harmless: the transpiled code never loads them).
      pending.push(path.posix.join(path.posix.dirname(name), target as string));
    }
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    mkdirSync(path.dirname(path.join(into, name)), { recursive: true });
    writeFileSync(path.join(into, `${name}.js`), output.outputText);
  }
  return path.join(into, 'audit', 'jsonl-audit-log.js');
}

let directory: string;
let child: ChildProcess | undefined;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'mcp-host-audit-kill-'));
});
afterEach(() => {
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  rmSync(directory, { recursive: true, force: true });
});

describe('audit log under SIGKILL', () => {
  it('leaves only whole lines (plus at most one torn last line the reader skips)', async () => {
    const sinkModule = compileSink(path.join(directory, 'sink'));
    const file = path.join(directory, 'audit.jsonl');
    const script = path.join(directory, 'writer.mjs');
    writeFileSync(
      script,
      `import { createJsonlAuditLog } from ${JSON.stringify(pathToFileURL(sinkModule).href)};
const log = createJsonlAuditLog(process.argv[2], { secrets: ['s3cret'] });
const padding = 'x'.repeat(3000);
let count = 0;
for (;;) {
  log.write({
    type: 'tool-call', time: new Date().toISOString(), runId: 'kill-test', callId: 'call_' + count,
    server: 'fs', tool: 'fs__write_file', originalTool: 'write_file',
    arguments: { path: '/tmp/' + count, content: padding + ' s3cret ' + count, password: 'p' },
    decision: 'allow', policy: 'allow', decidedBy: 'rule', reason: 'test', outcome: 'ok', resultBytes: count,
  });
  count += 1;
  if (count === 200) process.stdout.write('running\\n');
}
`,
    );
    const running = spawn(process.execPath, [script, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = running;
    let stderr = '';
    running.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      running.stdout!.on('data', () => resolve());
      running.on('exit', (code) => reject(new Error(`writer exited early with ${code}: ${stderr}`)));
    });
    // Let it write as much again, then kill it in the middle of whatever it is doing: waited for by the file's size
    // rather than for a while, which a busy machine may not give the writer at all.
    const sizeWhenRunning = statSync(file).size;
    await waitUntil(() => statSync(file).size > 2 * sizeWhenRunning, 'the writer to write as much again');
    const exited = new Promise((resolve) => running.on('exit', (_code, signal) => resolve(signal)));
    running.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const last = lines.pop()!;
    expect(lines.length).toBeGreaterThan(200);
    lines.forEach((line, index) => {
      const record = JSON.parse(line);
      expect(record.callId).toBe(`call_${index}`);
    });
    expect(text).not.toContain('s3cret');

    const contents = await readAuditLog(file);
    expect(contents.records).toHaveLength(lines.length);
    expect(contents.skippedLines).toBe(last === '' ? 0 : 1);
    expect(contents.tornLastLine).toBe(last !== '');

    // A later host appends on a fresh line, and every complete line still parses.
    const next = createJsonlAuditLog(file);
    next.write({
      type: 'server-start',
      time: new Date().toISOString(),
      runId: 'next',
      server: 'fs',
      transport: 'stdio',
      trust: 'trusted',
    });
    next.close();
    const after = await readAuditLog(file);
    expect(after.records).toHaveLength(lines.length + 1);
    expect(after.records.at(-1)).toMatchObject({ runId: 'next' });
  });
});
