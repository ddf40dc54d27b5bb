/**
 * A server's strings are printed in the order they are written. A real server puts embedding, override and isolate
 * characters and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) into everything it says — name,
 * version, descriptions, results, resources, prompts, logs — and a saved conversation holds them from the model and
 * the server: what the CLI prints keeps the words and none of those characters, as a terminal laying out
 * bidirectional text would reorder the rest of the line. JSON output keeps every character, written as `\u` escapes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';

const directionServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'text-direction-server.mjs'));
/** Each CLI run starts the server; generous for a busy machine. */
const TIMEOUT_MS = 120_000;
const RUN = { timeoutMs: 90_000 };
const DIRECTION_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function expectNoDirectionControls(output: { stdout: string; stderr: string }, where: string): void {
  for (const [stream, text] of [
    ['stdout', output.stdout],
    ['stderr', output.stderr],
  ] as const) {
    const found = DIRECTION_CONTROL.exec(text);
    expect(
      found,
      `${where} ${stream} holds U+${found?.[0].codePointAt(0)?.toString(16)} near ${JSON.stringify(text.slice(Math.max(0, (found?.index ?? 0) - 20), (found?.index ?? 0) + 20))}`,
    ).toBeNull();
  }
}

async function directionConfig(): Promise<string> {
  return writeConfig({
    mcpServers: { direction: { command: process.execPath, args: [directionServer], trust: 'trusted' } },
  });
}

describe('text-direction controls from servers and models are not printed', () => {
  it(
    'servers, tools, resources and prompts print the words without them',
    async () => {
      const config = await directionConfig();
      const runs = {
        servers: ['servers', '--config', config],
        'tools list': ['tools', 'list', '--config', config],
        'tools call': ['tools', 'call', 'direction__reverse', '--config', config],
        'resources list': ['resources', 'list', '--config', config],
        'resources read': ['resources', 'read', 'note://direction', '--config', config],
        'prompts list': ['prompts', 'list', '--config', config],
        'prompts get': ['prompts', 'get', 'direction:brief', 'topic=x', '--config', config],
      };
      const markers: Record<keyof typeof runs, string> = {
        servers: 'version-marker',
        'tools list': 'description-marker',
        'tools call': 'result-marker',
        'resources list': 'resource-name-marker',
        'resources read': 'resource-marker',
        'prompts list': 'prompt-marker',
        'prompts get': 'message-marker',
      };
      for (const [where, args] of Object.entries(runs) as Array<[keyof typeof runs, string[]]>) {
        const output = await runCliInProcess(args, RUN);
        expect(output.code, `${where}: ${output.stderr}`).toBe(0);
        expect(output.stdout, where).toContain(markers[where]);
        // The words stay, the controls removed (or, in `tools list`, shown as escapes, as a description is shown raw).
        expect(output.stdout, where).toMatch(/exe\.(\\u202e)?txt/);
        expectNoDirectionControls(output, where);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'JSON output writes them as escapes, so it keeps them and a terminal shows it in order',
    async () => {
      const config = await directionConfig();
      const call = await runCliInProcess(['tools', 'call', 'direction__reverse', '--json', '--config', config], RUN);
      expectNoDirectionControls(call, 'tools call --json');
      expect(call.stdout).toContain('exe.\\u202etxt\\u202c');
      const parsed = JSON.parse(call.stdout) as { result: { content: Array<{ text: string }> } };
      expect(parsed.result.content[0]?.text).toContain('exe.\u202etxt\u202c \u2066isolated\u2069');

      const servers = await runCliInProcess(['servers', '--json', '--config', config], RUN);
      expectNoDirectionControls(servers, 'servers --json');
      const [status] = JSON.parse(servers.stdout) as Array<{ serverInfo?: { name: string } }>;
      expect(status?.serverInfo?.name).toContain('\u2067right\u2069');
    },
    TIMEOUT_MS,
  );

  it(
    'trust list and audit print them as escapes, or not at all',
    async () => {
      const stateDir = await temporaryDirectory();
      const config = await directionConfig();
      const trust = await runCliInProcess(['trust', 'list', '--config', config], { ...RUN, stateDir });
      expect(trust.stdout).toContain('direction');
      expectNoDirectionControls(trust, 'trust list');
      // The arguments of a call are recorded as given.
      const call = await runCliInProcess(
        ['tools', 'call', 'direction__reverse', 'text=exe.\u202etxt\u202c', '--config', config],
        { ...RUN, stateDir },
      );
      expect(call.code).toBe(0);

      const table = await runCliInProcess(['audit'], { ...RUN, stateDir });
      expect(table.stdout).toContain('direction__reverse');
      expectNoDirectionControls(table, 'audit');
      const json = await runCliInProcess(['audit', '--json'], { ...RUN, stateDir });
      expect(json.stdout).toContain('exe.\\u202etxt');
      expectNoDirectionControls(json, 'audit --json');
    },
    TIMEOUT_MS,
  );

  it(
    'sessions show prints a saved conversation without them',
    async () => {
      const stateDir = await temporaryDirectory();
      const provider = createScriptedProvider({
        scenarios: [
          {
            turns: [
              { toolCalls: [{ id: 'r1', name: 'direction__reverse' }] },
              { text: 'Saved as \u202efdp.exe\u202c answer-marker' },
            ],
          },
        ],
      });
      const host = await createHost({
        config: hostConfig([stdioServer('direction', [directionServer], { trust: 'trusted' })], {
          permissions: { allow: ['direction__reverse'], ask: [], deny: [] },
        }),
        provider,
        stateDir,
        auditSink: false,
      });
      let id: string;
      try {
        const conversation = await host.conversation();
        for await (const _event of conversation.send('Reverse \u2067it\u2069 please')) {
          // drained
        }
        id = conversation.id;
      } finally {
        await host.close();
      }
      const shown = await runCliInProcess(['sessions', 'show', id], { stateDir });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('result-marker');
      expect(shown.stdout).toContain('Saved as fdp.exe answer-marker');
      expectNoDirectionControls(shown, 'sessions show');

      const listed = await runCliInProcess(['sessions', 'list'], { stateDir });
      expect(listed.stdout).toContain('Reverse it please');
      expectNoDirectionControls(listed, 'sessions list');
    },
    TIMEOUT_MS,
  );
});
