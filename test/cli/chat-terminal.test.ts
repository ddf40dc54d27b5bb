/**
 * `mcp-host chat` in a real pseudo-terminal (tmux on a private socket), with the scripted model, the mock LLM and real
 * servers: the calculator example, the `hang` fixture (its slow call records `notifications/cancelled`) and the
 * reference "everything" server (prompts with completions, resources). One terminal per group of steps; every wait
 * polls the screen for what should appear.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { type MockLlmServer, parseScript, startMockLlmServer } from '../../src/testing/index.js';
import { packageBin } from '../client-features/helpers.js';
import { cliPath, exampleServer, fixtureServer, isAlive, runCli, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const terminals = useTmuxServer();
const serverPids: number[] = [];

afterAll(() => {
  for (const pid of serverPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

/** The servers' pids as the audit records them (`pid N` in /audit). */
function pidsOnScreen(screen: string): number[] {
  return [...screen.matchAll(/\bpid (\d+)/g)].map((match) => Number(match[1]));
}

function chatCommand(directory: string, args: string): string {
  return `cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json ${args}`;
}

/** A config folder with the calculator, the slow `hang` fixture (its stderr appended to events.log) and `script`. */
function calculatorProject(directory: string, script: unknown): { events: string } {
  const events = join(directory, 'events.log');
  writeFileSync(join(directory, 'script.json'), JSON.stringify(script));
  writeFileSync(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      mcpServers: {
        calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' },
        hang: {
          command: 'sh',
          args: ['-c', `exec "${process.execPath}" "${fixtureServer('hang.mjs')}" 2>>"${events}"`],
          trust: 'trusted',
        },
      },
      permissions: {
        allow: ['calculator__add_numbers', 'calculator__multiply', 'calculator__subtract', 'hang__*'],
        ask: ['calculator__divide'],
      },
    }),
  );
  return { events };
}

describe.concurrent('mcp-host chat in a terminal', () => {
  describe('mcp-host chat: a conversation with tools, an approval, Ctrl-C mid-call, the commands, and --continue after SIGKILL', () => {
    let directory: string;
    let events: string;

    beforeAll(async () => {
      directory = await temporaryDirectory('mcp-host-chat-');
      ({ events } = calculatorProject(directory, {
        scenarios: [
          {
            match: '(\\d+) plus (\\d+)',
            turns: [
              { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: '{{match.1}}', b: '{{match.2}}' } }] },
              { text: '## Sum\n{{match.1}} plus {{match.2}} is **{{lastToolResult}}**.' },
              {
                toolCalls: [
                  { name: 'calculator__multiply', arguments: { a: 12, b: 3 } },
                  { name: 'calculator__subtract', arguments: { a: 12, b: 2 } },
                ],
              },
              {
                expect: { lastToolResultIsError: false },
                text: 'Both at once: {{lastToolResult}}.\n- times three\n- minus two',
              },
              { toolCalls: [{ name: 'calculator__divide', arguments: { a: 12, b: 4 } }] },
              { text: '12 divided by 4 is {{lastToolResult}}.' },
              { toolCalls: [{ name: 'hang__slow_progress', arguments: { seconds: 20, intervalMs: 200 } }] },
              { text: 'Still here after the cancelled call.' },
              { toolCalls: [{ name: 'hang__slow_progress', arguments: { seconds: 20, intervalMs: 200 } }] },
              { text: 'Back after the restart.' },
            ],
          },
        ],
      }));
    });

    it('runs the turns, asks inline, cancels with Ctrl-C, answers commands, resumes after a kill, and leaves no server behind', async () => {
      const env = { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory };
      const terminal = terminals().open(chatCommand(directory, ''), { env });
      await terminal.waitFor('/help for commands', STEP);

      // Turn 1: one call, its numbered compact line, the answer rendered (heading and bold marks gone, styles on).
      terminal.type('What is 5 plus 7?');
      terminal.keys('Enter');
      let screen = await terminal.waitFor('5 plus 7 is 12.', STEP);
      expect(screen).toMatch(/⚙ calculator add_numbers \{"a":5,"b":7\} · \d+ ms · ok → 12/);
      expect(screen).not.toContain('**');
      expect(terminal.styledScreen()).toContain('\u001b[1m');

      // The call's line is numbered; /expand shows the last call in full: indented arguments and the result.
      expect(screen).toMatch(/\[1\] ⚙ calculator add_numbers/);
      terminal.type('/expand');
      terminal.keys('Enter');
      screen = await terminal.waitFor(/^result, as the model received it:\n12$/m, STEP);
      expect(screen).toMatch(
        /^\[1\] calculator add_numbers · \d+ ms · ok\narguments:\n\{\n {2}"a": 5,\n {2}"b": 7\n\}$/m,
      );

      // Turn 2: two calls in parallel, one line each; a Markdown list as bullets.
      terminal.type('Now 12 times 3 and 12 minus 2, at once.');
      terminal.keys('Enter');
      screen = await terminal.waitFor('• minus two', STEP);
      expect(screen).toMatch(/⚙ calculator multiply \{"a":12,"b":3\} · \d+ ms · ok → 36/);
      expect(screen).toMatch(/⚙ calculator subtract \{"a":12,"b":2\} · \d+ ms · ok → 10/);

      // Turn 3: a call under an ask rule is asked inline; the answer is typed at the prompt.
      terminal.type('Divide 12 by 4, please.');
      terminal.keys('Enter');
      await terminal.waitFor('Your choice (o/d):', STEP);
      terminal.type('o');
      terminal.keys('Enter');
      screen = await terminal.waitFor('12 divided by 4 is 3.', STEP);
      expect(screen).toMatch(/⚙ calculator divide \{"a":12,"b":4\} · \d+ ms · ok → 3/);

      // Turn 4: Ctrl-C in the middle of a slow call cancels the turn; the server is told; the chat goes on.
      terminal.type('Take your time.');
      terminal.keys('Enter');
      const callId = await waitForFile(events, /^call (\S+) slow_progress$/m);
      terminal.keys('C-c');
      screen = await terminal.waitFor('(turn cancelled)', STEP);
      expect(screen).toMatch(/⚙ hang slow_progress .* · cancelled/);
      await waitForFile(events, new RegExp(`^cancelled ${callId}$`, 'm'));
      terminal.type('Are you still there?');
      terminal.keys('Enter');
      await terminal.waitFor('Still here after the cancelled call.', STEP);

      // Commands: Tab completes a command name; unknown commands are one line; /cost, /save, /remember, /audit.
      terminal.type('/too');
      terminal.keys('Tab');
      // Typed on before the completion shows, the rest could reach the chat in the same read as the Tab, which
      // readline then takes for pasted text (a literal tab) rather than a key.
      await terminal.waitFor(/^› \/tools\s*$/m, STEP);
      terminal.type(' add');
      terminal.keys('Enter');
      screen = await terminal.waitFor(/^calculator__add_numbers {2}Adds two numbers/m, STEP);
      terminal.type('/frobnicate');
      terminal.keys('Enter');
      await terminal.waitFor('mcp-host: unknown command /frobnicate', STEP);
      terminal.type('/cost');
      terminal.keys('Enter');
      await terminal.waitFor(/tokens: \d+ in \(\d+ of them cached\), \d+ out/, STEP);
      terminal.type('/save transcript.md');
      terminal.keys('Enter');
      await terminal.waitFor(/saved \d+ message\(s\) to .*transcript\.md/, STEP);
      const transcript = readFileSync(join(directory, 'transcript.md'), 'utf8');
      expect(transcript).toContain('## User\n\nWhat is 5 plus 7?');
      expect(transcript).toContain('Calls `calculator__multiply`');
      terminal.type('/remember Answers come from the calculator.');
      terminal.keys('Enter');
      await terminal.waitFor('Remembered in', STEP);
      expect(readFileSync(join(directory, '.mcp-host', 'memory.md'), 'utf8')).toContain(
        'Answers come from the calculator.',
      );
      terminal.type('/audit');
      terminal.keys('Enter');
      screen = await terminal.waitFor(/hang__slow_progress .* cancelled/, STEP);
      serverPids.push(...pidsOnScreen(screen));

      // Killed mid-turn (SIGKILL: nothing of the chat runs after it), then --continue: the session is intact up to
      // the last completed turn and carries on.
      terminal.type('One more slow one.');
      terminal.keys('Enter');
      await waitForFile(events, /^call \S+ slow_progress$[\s\S]*^call \S+ slow_progress$/m);
      process.kill(terminal.programPid()!, 'SIGKILL');
      await terminal.waitFor('[exited 137]', STEP);
      const sessions = join(directory, 'state', 'sessions');
      const files = readdirSync(sessions).filter((name) => name.endsWith('.jsonl'));
      expect(files).toHaveLength(1);
      const records = readFileSync(join(sessions, files[0]!), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; message?: Message });
      const messages = records.flatMap((record) => (record.message ? [record.message] : []));
      expect(messages.slice(0, 4).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      const answers = messages.flatMap((message) =>
        message.role === 'assistant'
          ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
          : [],
      );
      expect(answers.at(-1)).toBe('Still here after the cancelled call.');

      const resumed = terminals().open(chatCommand(directory, '--continue'), { env });
      screen = await resumed.waitFor('(resumed:', STEP);
      expect(screen).toContain(`session ${files[0]!.replace(/\.jsonl$/, '')}`);
      resumed.type('Are you back?');
      resumed.keys('Enter');
      await resumed.waitFor('Back after the restart.', STEP);
      resumed.type('/audit');
      resumed.keys('Enter');
      screen = await resumed.waitFor(/server-start +hang/, STEP);
      const pids = pidsOnScreen(screen);
      expect(pids).toHaveLength(2);
      serverPids.push(...pids);

      // Ctrl-C twice at an empty prompt leaves; the servers are stopped with it.
      resumed.keys('C-c');
      await resumed.waitFor('(Ctrl-C again, or Ctrl-D, to leave)', STEP);
      resumed.keys('C-c');
      await resumed.waitFor('[exited 0]', STEP);
      for (const pid of pids) expect(isAlive(pid)).toBe(false);
    }, 600_000);
  });

  describe('mcp-host chat: /model between two providers, server prompts with completion, @resources, NO_COLOR', () => {
    let mock: MockLlmServer;
    let directory: string;

    beforeAll(async () => {
      mock = await startMockLlmServer({
        script: parseScript({
          scenarios: [
            {
              match: 'Hello',
              turns: [
                { text: 'First answer, from **Anthropic**.' },
                { text: 'Second answer, after the switch.' },
                { text: 'Third answer, to the prompt.' },
                { text: 'Fourth answer, with the resource.' },
              ],
            },
          ],
        }),
      });
      directory = await temporaryDirectory('mcp-host-chat-model-');
      writeFileSync(
        join(directory, 'mcp-host.json'),
        JSON.stringify({
          mcpServers: {
            everything: { command: process.execPath, args: [packageBin('@modelcontextprotocol/server-everything')] },
          },
        }),
      );
    });

    afterAll(async () => {
      await mock?.close();
    });

    it('switches provider mid-conversation, completes prompt arguments, attaches resources, and prints no styles', async () => {
      const terminal = terminals().open(
        chatCommand(directory, `--model anthropic:claude-sonnet-4-6 --base-url ${mock.url}`),
        {
          env: {
            MCP_HOST_STATE_DIR: join(directory, 'state'),
            HOME: directory,
            ANTHROPIC_API_KEY: 'test',
            GEMINI_API_KEY: 'test',
            NO_COLOR: '1',
          },
        },
      );
      await terminal.waitFor('/help for commands', STEP);
      terminal.type('Hello there');
      terminal.keys('Enter');
      await terminal.waitFor('First answer, from **Anthropic**.', STEP);

      terminal.type('/model gemini:gemini-2.5-flash');
      terminal.keys('Enter');
      await terminal.waitFor('model: gemini:gemini-2.5-flash (from the next turn)', STEP);
      terminal.type('And now?');
      terminal.keys('Enter');
      await terminal.waitFor('Second answer, after the switch.', STEP);
      const routes = mock.requests.map((request) => request.path);
      expect(routes[0]).toBe('/v1/messages');
      expect(routes[1]).toMatch(/^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent/);
      // The transcript so far went to the new provider in its own format.
      expect(JSON.stringify(mock.requests[1]?.body)).toContain('First answer, from **Anthropic**.');

      // A server prompt as a command: Tab completes its name, its argument names and (MCP completion) their values.
      terminal.type('/everything:completable');
      terminal.keys('Tab');
      await terminal.waitFor('/everything:completable-prompt', STEP);
      terminal.type(' dep');
      terminal.keys('Tab');
      await terminal.waitFor('department=', STEP);
      terminal.type('Eng');
      terminal.keys('Tab');
      await terminal.waitFor('department=Engineering', STEP);
      terminal.type(' name=A');
      terminal.keys('Tab');
      await terminal.waitFor('name=Alice', STEP);
      terminal.keys('Enter');
      await terminal.waitFor('Third answer, to the prompt.', STEP);
      expect(JSON.stringify(mock.requests[2]?.body)).toContain(
        'Please promote Alice to the head of the Engineering team.',
      );

      // @server:uri attaches the resource, with Tab completing the URI.
      terminal.type('Summarise @everything:demo://resource/static/document/featu');
      terminal.keys('Tab');
      await terminal.waitFor('@everything:demo://resource/static/document/features.md', STEP);
      terminal.keys('Enter');
      await terminal.waitFor('Fourth answer, with the resource.', STEP);
      expect(terminal.screen()).toMatch(
        /\(attached @everything:demo:\/\/resource\/static\/document\/features\.md, \d+ characters\)/,
      );
      expect(JSON.stringify(mock.requests[3]?.body)).toContain('demo://resource/static/document/features.md');

      // NO_COLOR: the Markdown stays as written and nothing is styled.
      expect(terminal.styledScreen()).not.toContain('\u001b[1m');
      terminal.keys('C-d');
      await terminal.waitFor('[exited 0]', STEP);
    }, 600_000);
  });

  describe('mcp-host chat without a terminal', () => {
    it('reads messages and commands line by line from a pipe and prints plain text', async () => {
      const directory = await temporaryDirectory('mcp-host-chat-pipe-');
      calculatorProject(directory, {
        scenarios: [
          {
            match: '(\\d+) plus (\\d+)',
            turns: [
              { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: '{{match.1}}', b: '{{match.2}}' } }] },
              { text: '**{{match.1}} plus {{match.2}}** is {{lastToolResult}}.' },
            ],
          },
        ],
      });
      const result = await runCli(['chat', '-c', 'mcp-host.json'], {
        cwd: directory,
        input: 'What is 20 plus 22?\n/nonsense\n/calculatr:sum a=1\n/cost\n/help\n',
        timeoutMs: STEP,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('**20 plus 22** is 42.');
      expect(result.stdout).toMatch(/⚙ calculator add_numbers \{"a":20,"b":22\} · \d+ ms · ok → 42/);
      expect(result.stdout).toContain('mcp-host: unknown command /nonsense');
      // Written as a server's prompt, the unknown part is the server: it is named, with the servers there are.
      expect(result.stdout).toContain(
        'mcp-host: unknown command /calculatr:sum: no connected server is named "calculatr" (did you mean calculator? servers: calculator, hang; /prompts lists their prompts)',
      );
      expect(result.stdout).toMatch(/tokens: \d+ in/);
      expect(result.stdout).toContain(
        "Keys: Tab completes · Up and Down walk this chat's history · Ctrl-C cancels the turn",
      );
      expect(result.stdout).not.toContain('\u001b');
    }, 600_000);
  });
});

/** Polls a file until `pattern` matches; returns the first capture group (or the match). */
async function waitForFile(file: string, pattern: RegExp, timeoutMs = STEP): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const match = pattern.exec(text);
    if (match) return match[1] ?? match[0];
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in ${file}:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
