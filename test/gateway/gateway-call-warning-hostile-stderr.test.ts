/**
 * The warning a gateway client hears when its call is sent once more after its server went away says how the server
 * went, with its stderr's last lines: text a server wrote, passed on as plain text. A server that writes terminal
 * control sequences (clear the screen, set the window title, colours, a bare carriage return and a backspace) before
 * it exits: the client's warning keeps the words and none of the codes. The built CLI's stdio gateway, the official
 * v2 SDK client in front of it.
 */
import { join } from 'node:path';
import { Client, type LoggingMessageNotification } from '@modelcontextprotocol/client';
import { afterAll, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';

const HOSTILE_STDERR = '\u001b[2J\u001b]0;owned\u0007cleared \u001b[31mred\u001b[0m\rover\bwritten \u009b1mcsi';

let client: Client | undefined;

afterAll(async () => {
  await client?.close();
});

it('passes a server’s stderr into a call’s warning without its control codes', async () => {
  const directory = await temporaryDirectory('mcp-host-hostile-stderr-');
  const config = await writeFixtureServersConfig({
    crashy: {
      file: 'crash-mid-call.mjs',
      env: { EXITED_ONCE_FILE: join(directory, 'exited-once'), EXIT_STDERR_TEXT: HOSTILE_STDERR },
    },
  });
  const logs: LoggingMessageNotification['params'][] = [];
  client = new Client({ name: 'hostile-stderr-test', version: '1.0.0' });
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  await connectStdioGateway(client, config, directory);

  const answer = await client.callTool({ name: 'crashy__read_once_exits', arguments: {} });
  expect(textOf(answer)).toMatch(/^read \d+$/);
  await waitUntil(() => logs.length > 0, 'the warning of the call sent once more');
  expect(logs).toHaveLength(1);
  const text = String(logs[0]!.data);
  expect(text).toContain('crashy__read_once_exits lost its server; trying once more');
  expect(text).toContain('cleared');
  expect(text).toContain('red');
  // Nothing that moves a cursor, clears a screen, sets a title or colours text; line breaks between lines are text.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the codes a terminal acts on are what this looks for.
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
}, 90_000);
