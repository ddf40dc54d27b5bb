/**
 * The session file on its own: what a killed host leaves behind is read back without harm (torn last line,
 * calls that never got their results), records stay within their bound, and a cancelled model request is aborted.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import type { LlmProvider, Message } from '../../src/providers/types.js';
import { readSessionFile } from '../../src/sessions/read-session-file.js';
import { MAX_SESSION_RECORD_BYTES } from '../../src/sessions/session-records.js';
import { openSessionStore } from '../../src/sessions/session-store.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';

let stateDir: string;
beforeAll(async () => {
  stateDir = await temporaryDirectory();
  mkdirSync(join(stateDir, 'sessions'));
});
afterAll(async () => {
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

const header = (id: string) => ({
  type: 'session',
  version: 1,
  id,
  config: null,
  model: 'scripted:x',
  createdAt: '2026-01-01T00:00:00.000Z',
  title: 'hello',
});
const at = '2026-01-01T00:00:01.000Z';

/** One turn of a chat that made the call `callId`. */
const sleepTurn = (callId: string): Message[] => [
  { role: 'user', content: [{ type: 'text', text: 'sleep' }] },
  { role: 'assistant', content: [{ type: 'tool-call', id: callId, name: 'counter__sleep', argumentsText: '{}' }] },
  { role: 'tool', results: [{ callId, toolName: 'counter__sleep', isError: false, content: [] }] },
];

/** What a compaction put in place of the messages it replaced. */
const compactionSummary: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'summary' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
];

describe('a session file', () => {
  it('gives calls the host was killed during an unknown outcome when resumed, and keeps that on file', async () => {
    const store = openSessionStore(stateDir);
    const id = '20260101-000000-0000aaaa';
    const call: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'c1', name: 'srv__slow', argumentsText: '{}' }],
    };
    writeFileSync(
      store.fileOf(id),
      [
        header(id),
        { type: 'message', at, message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
        { type: 'message', at, message: call },
        '{"type":"mess',
      ]
        .map((line) => (typeof line === 'string' ? line : JSON.stringify(line)))
        .join('\n'),
    );
    const saved = readSessionFile(store.fileOf(id));
    expect(saved.warnings).toEqual([expect.stringContaining('line 4: ignored a torn last line')]);
    expect(saved.messages).toHaveLength(2);

    const host = await createHost({
      config: hostConfig([]),
      provider: neverAnswering().provider,
      stateDir,
      auditSink: false,
    });
    try {
      const conversation = await host.conversation({ sessionId: id });
      expect(conversation.history.at(-1)).toMatchObject({
        role: 'tool',
        results: [{ callId: 'c1', toolName: 'srv__slow', isError: true }],
      });
      const again = readSessionFile(store.fileOf(id));
      expect(again.messages).toEqual(conversation.history);
      // The torn line was closed off: the repair is a line of its own, not glued onto the fragment.
      expect(readFileSync(store.fileOf(id), 'utf8')).toContain('{"type":"mess\n');
    } finally {
      await host.close();
    }
  });

  it('skips unreadable lines in the middle and lists sessions from their headers alone', async () => {
    const store = openSessionStore(stateDir);
    const id = '20260102-000000-0000bbbb';
    writeFileSync(
      store.fileOf(id),
      `${JSON.stringify(header(id))}\nnot json\n${JSON.stringify({ type: 'message', at, message: { role: 'robot' } })}\n`,
    );
    const saved = readSessionFile(store.fileOf(id));
    expect(saved.messages).toEqual([]);
    expect(saved.warnings).toHaveLength(2);
    writeFileSync(join(store.directory, 'notes.txt'), 'not a session');
    writeFileSync(store.fileOf('20260103-000000-0000cccc'), 'no header\n');
    const warnings: string[] = [];
    const listed = store.list((warning) => warnings.push(warning));
    expect(listed.map((summary) => summary.id)).toContain(id);
    const broken = store.fileOf('20260103-000000-0000cccc');
    expect(warnings).toEqual([`skipped a session: ${broken} does not start with a session header`]);
    // Read asynchronously, the list and its warnings are the same.
    const warnedAsync: string[] = [];
    expect(await store.listAsync((warning) => warnedAsync.push(warning))).toEqual(listed);
    expect(warnedAsync).toEqual(warnings);
  });

  it('counts the calls each compaction replaced: as its record says, or as the replaced messages hold them', () => {
    const store = openSessionStore(stateDir);
    const id = '20260102-000000-0000dddd';
    const records = [
      header(id),
      ...[...sleepTurn('call_0'), ...sleepTurn('call_0')].map((message) => ({ type: 'message', at, message })),
      // Written by an earlier version: the two replaced calls are counted from the messages it replaced.
      { type: 'compaction', at, messages: compactionSummary, keptFrom: 6 },
      ...sleepTurn('call_0').map((message) => ({ type: 'message', at, message })),
      // Written now: it says how many calls it replaced, though the messages before it hold only one.
      { type: 'compaction', at, messages: compactionSummary, keptFrom: 2, replacedToolCalls: 4 },
    ];
    writeFileSync(store.fileOf(id), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const saved = readSessionFile(store.fileOf(id));
    expect(saved.warnings).toEqual([]);
    expect(saved.messages).toEqual([...compactionSummary, ...sleepTurn('call_0')]);
    expect(saved.compactedToolCalls).toBe(6);
  });

  it('counts the replaced calls from the messages when a compaction says a count no file could hold, and says so', () => {
    const store = openSessionStore(stateDir);
    const id = '20260102-000000-0000dddf';
    // Near 2^53 the numbers after it are no longer exact; the rest are no counts at all.
    for (const replacedToolCalls of [2 ** 53 - 1, 2 ** 40, 1e300, -3, 1.5, '2', null]) {
      const records = [
        header(id),
        ...[...sleepTurn('call_0'), ...sleepTurn('call_1')].map((message) => ({ type: 'message', at, message })),
        { type: 'compaction', at, messages: compactionSummary, keptFrom: 6, replacedToolCalls },
      ];
      writeFileSync(store.fileOf(id), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      const saved = readSessionFile(store.fileOf(id));
      expect({ replacedToolCalls, counted: saved.compactedToolCalls, warnings: saved.warnings }).toEqual({
        replacedToolCalls,
        counted: 2,
        warnings: [
          `${store.fileOf(id)} line 8: ignored its count of replaced tool calls, which is no count the lines before it could hold; counted them from the messages it replaced`,
        ],
      });
      expect(saved.messages).toEqual(compactionSummary);
    }
  });

  it('lists a session with the times a full read gives, however long its lines and wherever its chunks end', async () => {
    const store = openSessionStore(stateDir);
    const message = (second: number, length: number) =>
      JSON.stringify({
        type: 'message',
        at: `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
        message: { role: 'user', content: [{ type: 'text', text: 'é🙂x'.repeat(length / 7) }] },
      });
    // Lines of every length around the 64 KiB the listing reads at a time, a second header and lines that are no
    // records before the first record and after the last, a torn last line.
    const layouts: string[][] = [
      [message(1, 10)],
      [message(1, 10), message(2, 10), '{"type":"message","at":"2026-01-01T00:00:59.000Z","mess'],
      ['not json', '', message(3, 70_000), message(4, 65_530), JSON.stringify(header('x')), '[]', ''],
      [message(5, 200_000), message(6, 10), message(7, 131_072)],
      [JSON.stringify(header('y')), message(8, 65_536 - 200)],
    ];
    layouts.forEach((lines, index) => {
      const id = `20260105-00000${index}-0000dddd`;
      const torn = lines.at(-1)!.endsWith('"mess');
      writeFileSync(store.fileOf(id), `${[JSON.stringify(header(id)), ...lines].join('\n')}${torn ? '' : '\n'}`);
      const saved = readSessionFile(store.fileOf(id));
      const listed = store.list().find((summary) => summary.id === id);
      expect({ index, ...listed }).toMatchObject({ index, createdAt: saved.createdAt, updatedAt: saved.updatedAt });
      expect(saved.updatedAt).not.toBe(header(id).createdAt);
    });
    // A header of another session, later than its first record: the start is that record's, as a full read has it.
    const copy = '20260106-000000-0000eeee';
    const claimed = { ...header('20260101-000000-0000ffff'), createdAt: '2026-02-01T00:00:00.000Z' };
    writeFileSync(store.fileOf(copy), `${JSON.stringify(claimed)}\n${message(9, 10)}\n${message(10, 10)}\n`);
    expect(store.list().find((summary) => summary.id === copy)).toMatchObject({
      createdAt: '2026-01-01T00:00:09.000Z',
      updatedAt: '2026-01-01T00:00:10.000Z',
    });
    expect(await store.listAsync()).toEqual(store.list());
  });

  it('lists the model in use as a full read has it: the last switch or the last answer that names its model', async () => {
    const store = openSessionStore(stateDir);
    const user = { type: 'message', at, message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } };
    const answer = (model?: unknown) => ({
      type: 'message',
      at,
      ...(model === undefined ? {} : { model }),
      message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    });
    const switchTo = (model: string) => ({ type: 'model', at, model });
    const layouts: Array<{ records: object[]; model: string }> = [
      { records: [user], model: 'scripted:x' },
      // Files of the earlier version name the model on switches only.
      { records: [switchTo('openai:a'), user, answer(), user], model: 'openai:a' },
      { records: [switchTo('openai:a'), answer('gemini:b'), user], model: 'gemini:b' },
      { records: [answer('gemini:b'), user, switchTo('anthropic:c')], model: 'anthropic:c' },
      { records: [switchTo('openai:a'), answer(42), user], model: 'openai:a' },
      { records: [answer('gemini:b'), { ...user, model: 'ollama:d' }], model: 'gemini:b' },
      { records: [answer('gemini:b'), answer(`ollama:${'x'.repeat(100_000)}`)], model: 'gemini:b' },
    ];
    layouts.forEach(({ records, model }, index) => {
      const id = `20260107-00000${index}-0000abcd`;
      writeFileSync(store.fileOf(id), `${[header(id), ...records].map((line) => JSON.stringify(line)).join('\n')}\n`);
      const listed = store.list().find((summary) => summary.id === id);
      expect({ index, model: listed?.model }).toEqual({ index, model });
      expect({ index, model: readSessionFile(store.fileOf(id)).model }).toEqual({ index, model });
    });
    expect(await store.listAsync()).toEqual(store.list());
  });

  it('shortens a message that would exceed the record bound before writing it', async () => {
    const huge = 'x'.repeat(MAX_SESSION_RECORD_BYTES + 10);
    const model = neverAnswering();
    const host = await createHost({ config: hostConfig([]), provider: model.provider, stateDir, auditSink: false });
    try {
      const conversation = await host.conversation();
      const consuming = (async () => {
        for await (const _event of conversation.send(huge)) {
          // drained
        }
      })();
      await model.asked;
      await conversation.cancel();
      await consuming;
      // The model request was aborted through its signal.
      expect(model.abortedWith()).toBeDefined();
      const line = readFileSync(openSessionStore(stateDir).fileOf(conversation.id), 'utf8').split('\n')[1]!;
      expect(Buffer.byteLength(line)).toBeLessThan(MAX_SESSION_RECORD_BYTES);
      expect(line).toContain('characters left out of the saved session');
      expect(conversation.history).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});

describe('the hold on a session', () => {
  it('is taken with the first record or the resumption, and let go by close() and by closing the host', async () => {
    const provider = createScriptedProvider({ scenarios: [], fallbackText: 'ok' });
    const store = openSessionStore(stateDir);
    const lock = (id: string) => join(store.directory, `${id}.lock`);
    const host = await createHost({ config: hostConfig([]), provider, stateDir, auditSink: false });
    let id: string;
    try {
      const conversation = await host.conversation();
      id = conversation.id;
      for await (const _event of conversation.send('hello')) {
        // drained
      }
      const thisHost = `host=${encodeURIComponent(hostname())}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(readFileSync(lock(id), 'utf8')).toMatch(new RegExp(`^${process.pid}( \\d+ [0-9a-f-]+)? ${thisHost}\n$`));
      await conversation.close();
      expect(existsSync(lock(id))).toBe(false);

      await host.conversation({ sessionId: id });
      expect(existsSync(lock(id))).toBe(true);
    } finally {
      await host.close();
    }
    expect(existsSync(lock(id))).toBe(false);
  });
});

describe('one turn at a time', () => {
  it("refuses a second send while a turn runs, and stops the turn on the caller's own signal", async () => {
    const model = neverAnswering();
    const host = await createHost({ config: hostConfig([]), provider: model.provider, stateDir, auditSink: false });
    try {
      const conversation = await host.conversation();
      const caller = new AbortController();
      const events: string[] = [];
      const consuming = (async () => {
        for await (const event of conversation.send('first', { signal: caller.signal })) events.push(event.type);
      })();
      await model.asked;
      const second = (async () => {
        for await (const _event of conversation.send('second')) {
          // not reached
        }
      })();
      await expect(second).rejects.toThrow(/a turn is already running/);
      caller.abort(new Error('the caller gave up'));
      await consuming;
      expect(events.at(-1)).toBe('run-end');
      expect(model.abortedWith()).toBeDefined();
      await expect(conversation.setModel('nosuch:model')).rejects.toThrow(/nosuch/);
      expect(conversation.model()).toBe('scripted:silent');
    } finally {
      await host.close();
    }
  });
});

/** A model that never answers: it waits for its request to be aborted. */
function neverAnswering(): { provider: LlmProvider; asked: Promise<void>; abortedWith: () => unknown } {
  let reason: unknown;
  let asked!: () => void;
  const askedPromise = new Promise<void>((resolve) => {
    asked = resolve;
  });
  return {
    asked: askedPromise,
    abortedWith: () => reason,
    provider: {
      provider: 'scripted',
      model: 'silent',
      generate: (_request, options = {}) =>
        new Promise((_resolve, reject) => {
          asked();
          options.signal?.addEventListener('abort', () => {
            reason = options.signal?.reason;
            reject(options.signal?.reason);
          });
        }),
    },
  };
}
