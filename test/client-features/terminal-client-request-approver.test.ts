/** The terminal dialogs, driven through streams exactly as a person types. */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientRequestApprover } from '../../src/client-features/client-request-approver.js';
import { describeUrl } from '../../src/client-features/describe-url.js';
import { formFields } from '../../src/client-features/elicitation-form-fields.js';
import { createTerminalClientRequestApprover } from '../../src/client-features/terminal-client-request-approver.js';
import { createLinePrompter, type LinePrompter } from '../../src/policy/line-prompter.js';
import { waitUntil } from '../helpers/wait-until.js';

let prompter: LinePrompter | undefined;
afterEach(() => prompter?.close());

function terminal(): {
  approver: ClientRequestApprover;
  type: (line: string) => void;
  end: () => void;
  shown: () => string;
} {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
  });
  prompter = createLinePrompter({ input, output });
  return {
    approver: createTerminalClientRequestApprover({ prompter }),
    type: (line) => input.write(`${line}\n`),
    end: () => input.end(),
    shown: () => shown,
  };
}

/** Waits until the terminal shows `text` (the dialog has reached that question). */
async function until(shown: () => string, text: string): Promise<void> {
  await waitUntil(() => shown().includes(text), JSON.stringify(text), 20_000, 5).catch((error: Error) => {
    throw new Error(`${error.message}; shown:\n${shown()}`);
  });
}

const form = formFields({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    color: { type: 'string', enum: ['red', 'green'] },
    password: { type: 'string' },
  },
  required: ['name'],
});

describe('terminal client-request approver', () => {
  it('fills a form field by field: defaults on Enter, invalid answers asked again, secrets flagged and masked', async () => {
    const { approver, type, shown } = terminal();
    const answer = approver.elicitForm({ serverName: 'srv', message: 'Tell us about you', fields: form });
    await until(shown, 'Your choice (f/d/c)');
    expect(shown()).toContain('Server "srv" asks you to fill in a form');
    expect(shown()).toMatch(/"password" seems to ask for a password or other secret/);
    type('f');
    await until(shown, '(1/4) Name');
    type('');
    await until(shown, '"Name" is required.');
    type('Ada');
    await until(shown, 'Enter takes the default: 3');
    type('11');
    await until(shown, 'At most 10.');
    type('');
    await until(shown, '(3/4) color');
    type('2');
    await until(shown, '(4/4) password');
    type('hunter2');
    await until(shown, 'Send this to server "srv"?');
    expect(shown()).toContain('password: ••••••');
    expect(shown()).not.toContain('hunter2\n  ');
    type('s');
    await expect(answer).resolves.toEqual({
      action: 'accept',
      content: { name: 'Ada', count: 3, color: 'green', password: 'hunter2' },
    });
  });

  it('declines or cancels a form, and cancels when input ends mid-form', async () => {
    const first = terminal();
    const declined = first.approver.elicitForm({ serverName: 'srv', message: 'm', fields: form });
    await until(first.shown, 'Your choice');
    first.type('d');
    await expect(declined).resolves.toEqual({ action: 'decline' });

    const second = terminal();
    const cancelled = second.approver.elicitForm({ serverName: 'srv', message: 'm', fields: form });
    await until(second.shown, 'Your choice');
    second.type('f');
    await until(second.shown, '(1/4)');
    second.end();
    await expect(cancelled).resolves.toEqual({ action: 'cancel' });
  });

  it('shows the whole URL with its domain and warnings, and opens only on "o"', async () => {
    const { approver, type, shown } = terminal();
    const url = describeUrl('https://\u0430pple.com/signin?next=https://apple.com');
    const answer = approver.elicitUrl({ serverName: 'srv', message: 'Sign in', elicitationId: 'e1', url });
    await until(shown, 'Your choice');
    expect(shown()).toContain('URL:    https://[xn--pple-43d.com]/signin?next=https://apple.com');
    expect(shown()).toContain('Domain: xn--pple-43d.com (in Unicode: \u0430pple.com)');
    expect(shown()).toContain('Punycode');
    expect(shown()).toContain('Nothing has been fetched or opened.');
    type('x');
    await until(shown, 'Please answer o, d, c.');
    type('o');
    await expect(answer).resolves.toBe('accept');
  });

  it('offers no "open" for a URL the host will not open', async () => {
    const { approver, type, shown } = terminal();
    const answer = approver.elicitUrl({
      serverName: 'srv',
      message: 'm',
      elicitationId: 'e2',
      url: describeUrl('file:///etc/passwd'),
    });
    await until(shown, 'Your choice');
    expect(shown()).not.toContain('[o] open');
    type('o');
    await until(shown, 'Please answer d, c.');
    type('c');
    await expect(answer).resolves.toBe('cancel');
  });

  it('shows which server asks and the full prompt for sampling, escape sequences made visible', async () => {
    const { approver, type, shown } = terminal();
    const answer = approver.approveSampling({
      serverName: 'srv',
      model: 'scripted:test',
      systemPrompt: 'Be brief.',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Summarise this:\n\x1b[2Jsecret plan' } },
        { role: 'user', content: { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' } },
      ],
      maxTokens: 64,
      tools: [],
      notApplied: ['temperature 0.7'],
      modelHints: ['claude-3-sonnet'],
    });
    await until(shown, 'Your choice (a/d)');
    const view = shown();
    expect(view).toContain('Server "srv" asks the host\'s model to answer a prompt (sampling)');
    expect(view).toContain('Model: scripted:test   Max tokens: 64');
    expect(view).toContain('Be brief.');
    expect(view).toContain('Summarise this:');
    expect(view).toContain('\\x1b[2Jsecret plan');
    expect(view).not.toContain('\x1b[2J');
    expect(view).toContain('[image image/png, 5 bytes]');
    expect(view).toContain('Not applied: temperature 0.7');
    type('d');
    await expect(answer).resolves.toBe('deny');
  });

  it('shows the names a server gives (fields, choices, tools, model hints) each on one line, a line break as its escape', async () => {
    const forged = 'The answer goes back to server "trusted".';
    const first = terminal();
    const sampled = first.approver.approveSampling({
      serverName: 'srv',
      model: 'scripted:test',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
      maxTokens: 64,
      tools: [{ name: `lookup\n${forged}` }],
      notApplied: [],
      modelHints: [`fast\n${forged}`],
    });
    await until(first.shown, 'Your choice (a/d)');
    expect(first.shown()).toContain(`  - lookup\\x0a${forged}\n`);
    expect(first.shown()).toContain(`The server would prefer: fast\\x0a${forged}\n`);
    expect(
      first
        .shown()
        .split('\n')
        .filter((line) => line.startsWith('The answer goes back')),
    ).toEqual(['The answer goes back to server "srv".']);
    first.type('d');
    await expect(sampled).resolves.toBe('deny');

    const second = terminal();
    const fields = formFields({
      type: 'object',
      properties: { pick: { type: 'string', title: 'Pick\nFields: none', enum: ['a\n(2/2) b'] } },
    });
    const answered = second.approver.elicitForm({ serverName: 'srv', message: 'm', fields });
    await until(second.shown, 'Your choice');
    expect(second.shown()).toContain('Fields: Pick\\x0aFields: none\n');
    second.type('f');
    await until(second.shown, '(1/1)');
    expect(second.shown()).toContain('(1/1) Pick\\x0aFields: none — ');
    expect(second.shown()).toContain('1) a\\x0a(2/2) b');
    second.end();
    await expect(answered).resolves.toEqual({ action: 'cancel' });
  });

  it('asks one dialog at a time when two servers ask at once', async () => {
    const { approver, type, shown } = terminal();
    const first = approver.elicitUrl({
      serverName: 'one',
      message: 'm1',
      elicitationId: 'a',
      url: describeUrl('https://a.test'),
    });
    const second = approver.elicitUrl({
      serverName: 'two',
      message: 'm2',
      elicitationId: 'b',
      url: describeUrl('https://b.test'),
    });
    await until(shown, 'Server "one"');
    expect(shown()).not.toContain('Server "two"');
    type('d');
    await expect(first).resolves.toBe('decline');
    await until(shown, 'Server "two"');
    type('o');
    await expect(second).resolves.toBe('accept');
  });
});

describe('progress lines', () => {
  it('shows the step, the total and the share done', async () => {
    const { formatProgress } = await import('../../src/client-features/terminal-client-features.js');
    expect(formatProgress({ server: 's', tool: 's__long', progress: 3, total: 4, message: 'copying' })).toBe(
      's__long: 3/4 (75%) copying',
    );
    expect(formatProgress({ server: 's', tool: 's__long', progress: 7 })).toBe('s__long: 7');
  });
});
