/**
 * What a server's prompt opens a run with goes through the output budget as a tool result does: a real server over
 * stdio answers a prompt far over the budget, the model is shown the whole prompt, every message together, within
 * the budget, the full text is kept in the result store, and the model reads the rest with `read_stored_result`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimatePartTokens } from '../../src/content/linear-token-estimate.js';
import { READ_STORED_RESULT_TOOL_NAME } from '../../src/content/read-stored-result-tool.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { Message, ModelRequest, UserPart } from '../../src/providers/types.js';
import { createScriptedProvider, type ScriptedProvider } from '../../src/testing/scripted-provider.js';
import { parseCut } from '../content/notice.js';
import { fixtureServerLaunch } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { unattendedHostOptions } from './helpers.js';

const BUDGET = 1_000;
const KILOBYTES = 100;

let host: Host;
let provider: ScriptedProvider;
beforeAll(async () => {
  const launch = fixtureServerLaunch('big-prompt');
  provider = createScriptedProvider({
    scenarios: [
      {
        // The first notice of the prompt names the stored copy: the model reads on from where the cut began.
        match: `with id "(res_[\\w-]+)", offset (\\d+)`,
        // The prompt's own assistant message counts as the scenario's first turn.
        turns: [
          { text: 'ASSISTANT said this.' },
          {
            toolCalls: [
              {
                name: READ_STORED_RESULT_TOOL_NAME,
                arguments: { id: '{{match.1}}', offset: '{{match.2}}', length: 2_000 },
              },
            ],
          },
          { text: 'read on' },
        ],
      },
      { turns: [{ text: 'looked' }] },
    ],
  });
  host = await createHost({
    config: hostConfig([stdioServer('big', launch.args)]),
    maxResultTokens: BUDGET,
    provider,
    ...(await unattendedHostOptions()),
  });
}, 60_000);
afterAll(async () => {
  await host?.close();
});

function partsOf(messages: readonly Message[]): UserPart[] {
  return messages.flatMap((message) =>
    message.role === 'tool' ? [] : message.content.filter((part): part is UserPart => part.type !== 'tool-call'),
  );
}

function firstText(message: Message | undefined): string {
  const part = message?.role === 'user' ? message.content[0] : undefined;
  return part?.type === 'text' ? part.text : '';
}

async function storedText(id: string): Promise<string> {
  let text = '';
  for await (const piece of host.readStoredText(id)) text += piece;
  return text;
}

function numbered(label: string): string {
  const head = `BEGIN ${label}\n`;
  const tail = `\nEND ${label}`;
  const count = Math.floor((KILOBYTES * 1024 - head.length - tail.length) / 64);
  const lines = Array.from(
    { length: count },
    (_, index) => `line ${String(index + 1).padStart(7, '0')} ${'.'.repeat(50)}\n`,
  );
  return head + lines.join('') + tail;
}

describe('a server prompt and the output budget', () => {
  it('shows the model the whole prompt within one budget and keeps every message whole for read_stored_result', async () => {
    const before = provider.requests.length;
    const result = await host.run('What is in it?', {
      prompt: { server: 'big', name: 'big_prompt', arguments: { kilobytes: String(KILOBYTES) } },
    });
    const [first, second] = provider.requests.slice(before) as [ModelRequest, ModelRequest];

    // The prompt's three messages: user text, assistant text, user embedded resource; then the question.
    const [opening, assistant, resource, question] = first.messages;
    expect(opening?.role).toBe('user');
    expect(assistant).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'ASSISTANT said this.' }] });
    expect(resource?.role).toBe('user');
    expect(question).toEqual({ role: 'user', content: [{ type: 'text', text: 'What is in it?' }] });
    const promptParts = partsOf(first.messages.slice(0, 3));
    const promptTokens = promptParts.reduce((sum, part) => sum + estimatePartTokens(part), 0);
    expect(promptTokens).toBeLessThanOrEqual(BUDGET);

    const text = numbered('big prompt');
    const resourceText = `[resource notes://big (text/plain)]\n${numbered('big resource')}`;
    const textCut = parseCut(firstText(opening));
    const resourceCut = parseCut(firstText(resource));
    expect([textCut.subject, resourceCut.subject]).toEqual(['this prompt', 'this prompt']);
    expect(text.startsWith(textCut.head) && text.endsWith(textCut.tail)).toBe(true);
    expect(resourceText.startsWith(resourceCut.head) && resourceText.endsWith(resourceCut.tail)).toBe(true);
    // One stored copy for the whole prompt, its messages' texts in order.
    expect(textCut.resultId).toBeDefined();
    expect(resourceCut.resultId).toBe(textCut.resultId);
    const stored = await storedText(textCut.resultId as string);
    expect(stored).toBe([text, 'ASSISTANT said this.', resourceText].join('\n\n'));
    expect(stored.slice(resourceCut.offset, (resourceCut.offset ?? 0) + resourceCut.omittedCharacters)).toBe(
      resourceText.slice(resourceCut.head.length, resourceText.length - resourceCut.tail.length),
    );

    // Offered from the first turn on, the reader returns what the cut left out.
    expect(first.tools.map((tool) => tool.name)).toContain(READ_STORED_RESULT_TOOL_NAME);
    const read = second.messages.at(-1);
    expect(read?.role).toBe('tool');
    const readPart = read?.role === 'tool' ? read.results[0]?.content[0] : undefined;
    const readText = readPart?.type === 'text' ? readPart.text : '';
    expect(readText).toContain(text.slice(textCut.head.length, textCut.head.length + 2_000));
    expect(result.text).toBe('read on');
  }, 60_000);

  it('leaves out an image the budget has no room for, saying so', async () => {
    const before = provider.requests.length;
    await host.run('', { prompt: { server: 'big', name: 'big_image' } });
    const [request] = provider.requests.slice(before) as [ModelRequest];
    expect(partsOf(request.messages)).toEqual([
      { type: 'text', text: 'Look at this picture.' },
      {
        type: 'text',
        text: `[image left out (image/png, 33 bytes): it does not fit in this prompt's output budget of ${BUDGET.toLocaleString('en-US')} tokens.]`,
      },
    ]);
  }, 60_000);
});
