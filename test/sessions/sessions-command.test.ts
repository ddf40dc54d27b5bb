/**
 * `mcp-host sessions list|show|export|delete` against sessions a conversation saved: list and delete as the built
 * CLI's own process, the rest as the same program in the test worker.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { createHost } from '../../src/host/create-host.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig } from '../helpers/configs.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

let stateDir: string;
const ids: string[] = [];

beforeAll(async () => {
  stateDir = await temporaryDirectory();
  const provider = createScriptedProvider({
    scenarios: [
      { match: 'first', turns: [{ text: 'Answer with ```fence``` and \u001b]0;title\u0007 codes' }] },
      { match: 'second', turns: [{ text: 'second answer' }] },
    ],
  });
  const host = await createHost({ config: hostConfig([]), provider, stateDir, auditSink: false });
  try {
    for (const prompt of ['first \u001b[2J question', 'second question']) {
      const conversation = await host.conversation();
      for await (const _event of conversation.send(prompt)) {
        // drained
      }
      ids.push(conversation.id);
    }
  } finally {
    await host.close();
  }
});

afterAll(async () => {
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe('mcp-host sessions', () => {
  it('lists, shows and exports saved sessions, without terminal control codes', async () => {
    // The listing is a real process; the other reads run the same program in the test worker, one after another.
    const [listed, shown, markdown, json, wrongFormat, notAnId] = await Promise.all([
      runCli(['sessions', 'list', '--json'], { stateDir }),
      runCliInProcess(['sessions', 'show', ids[0]!], { stateDir }),
      runCliInProcess(['sessions', 'export', ids[0]!, '--format', 'markdown'], { stateDir }),
      runCliInProcess(['sessions', 'export', ids[0]!, '--format', 'json'], { stateDir }),
      runCliInProcess(['sessions', 'export', ids[0]!, '--format', 'html'], { stateDir }),
      runCliInProcess(['sessions', 'show', '../../x'], { stateDir }),
    ]);
    expect(listed.code).toBe(EXIT_OK);
    const summaries = JSON.parse(listed.stdout) as { id: string; title: string; model: string }[];
    expect(summaries.map((summary) => summary.id).sort()).toEqual([...ids].sort());
    expect(summaries.find((summary) => summary.id === ids[0])?.title).toBe('first question');

    expect(shown.code).toBe(EXIT_OK);
    expect(shown.stdout).toContain('you: first  question');
    expect(shown.stdout).toContain('model: Answer with ```fence``` and  codes');
    expect(shown.stdout).not.toContain('\u001b');

    expect(markdown.code).toBe(EXIT_OK);
    expect(markdown.stdout).toMatch(/^# first question\n/);
    expect(markdown.stdout).toContain('## User\n\nfirst  question\n');
    expect(markdown.stdout).toContain('## Assistant\n\nAnswer with ```fence``` and  codes\n');

    expect(json.code).toBe(EXIT_OK);
    const exported = JSON.parse(json.stdout) as { id: string; messages: unknown[] };
    expect(exported.id).toBe(ids[0]);
    expect(exported.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first \u001b[2J question' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Answer with ```fence``` and \u001b]0;title\u0007 codes' }],
      },
    ]);
    // The JSON keeps the text as it was, escaped: nothing a terminal acts on reaches stdout.
    expect(json.stdout).not.toContain('\u001b');

    expect(wrongFormat.code).toBe(EXIT_USAGE);
    expect(wrongFormat.stderr).toContain('html');
    expect(notAnId.code).toBe(EXIT_USAGE);
    expect(notAnId.stderr).toContain('is not a session id');
  });

  it('names a misspelt command as such, not as extra words for the listing', async () => {
    const misspelt = await runCliInProcess(['sessions', 'shwo', ids[0]!], { stateDir });
    expect(misspelt.code).toBe(EXIT_USAGE);
    expect(misspelt.stderr).toBe(
      "mcp-host: unknown command 'sessions shwo' — did you mean show? (commands: list, show, export, delete)\n",
    );
    expect(misspelt.stdout).toBe('');
  });

  it('shows a copied file under its own name, with times from its records rather than the header it carries', async () => {
    const original = join(stateDir, 'sessions', `${ids[0]}.jsonl`);
    const lines = (await readFile(original, 'utf8')).trimEnd().split('\n');
    const header = JSON.parse(lines[0]!) as { createdAt: string };
    const records = lines.slice(1).map((line) => JSON.parse(line) as { at: string });
    // The copy's header also claims a start after its first record: neither its id nor its time is the copy's.
    const claimed = { ...header, createdAt: '2099-01-01T00:00:00.000Z' };
    const copy = '20990101-000000-0123abcd';
    await writeFile(
      join(stateDir, 'sessions', `${copy}.jsonl`),
      `${[JSON.stringify(claimed), ...lines.slice(1)].join('\n')}\n`,
    );
    try {
      const [shown, exported, listed] = [
        await runCli(['sessions', 'show', copy], { stateDir }),
        await runCliInProcess(['sessions', 'export', copy], { stateDir }),
        await runCliInProcess(['sessions', 'list', '--json'], { stateDir }),
      ];
      expect(shown.code).toBe(EXIT_OK);
      const [title, times] = shown.stdout.split('\n');
      expect(title).toBe(`Session ${copy}: first question`);
      expect(times).toContain(`started ${records[0]!.at} · updated ${records.at(-1)!.at}`);
      expect(shown.stderr).toBe(
        `mcp-host: ${join(stateDir, 'sessions', `${copy}.jsonl`)}: its header names session ${ids[0]}; shown as ${copy}, its file name\n`,
      );
      expect(JSON.parse(exported.stdout)).toMatchObject({ id: copy, createdAt: records[0]!.at });
      // The listing agrees: the copy, just written, is as old as its records, not as new as its file.
      expect(JSON.parse(listed.stdout)).toContainEqual(
        expect.objectContaining({ id: copy, createdAt: records[0]!.at, updatedAt: records.at(-1)!.at }),
      );
      expect(JSON.parse(listed.stdout)).toContainEqual(
        expect.objectContaining({ id: ids[0], createdAt: header.createdAt, updatedAt: records.at(-1)!.at }),
      );

      // Its own, untouched file keeps the header's start, from before the first record.
      const own = await runCliInProcess(['sessions', 'show', ids[0]!], { stateDir });
      expect(own.stdout.split('\n')[1]).toContain(`started ${header.createdAt} ·`);
      expect(own.stderr).toBe('');
    } finally {
      await rm(join(stateDir, 'sessions', `${copy}.jsonl`));
    }
  });

  it('bounds the title and model of a header someone else wrote, in the listing and the transcript', async () => {
    const original = join(stateDir, 'sessions', `${ids[0]}.jsonl`);
    const lines = (await readFile(original, 'utf8')).trimEnd().split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    const hostile = {
      ...header,
      id: '20980101-000000-0123abcd',
      title: `long \u001b]0;x\u0007 ${'t'.repeat(100_000)}`,
      model: `ollama:${'m'.repeat(100_000)}`,
    };
    // Header only: the model in use is the header's.
    const file = join(stateDir, 'sessions', `${hostile.id}.jsonl`);
    await writeFile(file, `${JSON.stringify(hostile)}\n`);
    try {
      const [listed, listedJson, shown] = [
        await runCliInProcess(['sessions', 'list'], { stateDir }),
        await runCliInProcess(['sessions', 'list', '--json'], { stateDir }),
        await runCliInProcess(['sessions', 'show', hostile.id], { stateDir }),
      ];
      const line = listed.stdout.split('\n').find((text) => text.startsWith(hostile.id));
      // The OSC sequence goes whole, its text included.
      expect(line).toMatch(/ {2}ollama:m{192}… {2}long t{74}…$/);
      const summary = (JSON.parse(listedJson.stdout) as { id: string; title: string; model: string }[]).find(
        (entry) => entry.id === hostile.id,
      );
      expect(summary?.title).toHaveLength(80);
      expect(summary?.model).toHaveLength(200);
      const [title, model] = shown.stdout.split('\n');
      expect(title).toBe(`Session ${hostile.id}: long ${'t'.repeat(74)}…`);
      expect(model).toMatch(/^ {2}model ollama:m{192}… · started /);
    } finally {
      await rm(file);
    }
  });

  it('deletes a session, and names an unknown id with a usage error', async () => {
    // A real process deletes; the check after it runs in the worker.
    const deleted = await runCli(['sessions', 'delete', ids[1]!], { stateDir });
    expect(deleted.code).toBe(EXIT_OK);
    expect(existsSync(join(stateDir, 'sessions', `${ids[1]}.jsonl`))).toBe(false);

    const unknown = await runCliInProcess(['sessions', 'show', ids[1]!], { stateDir });
    expect(unknown.code).toBe(EXIT_USAGE);
    expect(unknown.stderr).toMatch(new RegExp(`^mcp-host: no saved session "${ids[1]}"`));
  });
});
