/**
 * `@ai-sdk/mcp`'s client (the Vercel AI SDK's, which needs Node 22) in front of `mcp-host serve`, for
 * test/gateway/gateway-ai-sdk.test.ts: lists the tools, calls one, answers an "ask" through elicitation, cancels
 * a call, and sees a tool whose definition changed upstream withheld. Run with the Node 22 binary: `node ai-sdk-client.mjs '{"transport": "stdio" | "http", …}'`.
 * Prints one line `RESULT <json>` on stdout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const options = JSON.parse(process.argv[2]);
const resolve = createRequire(join(options.node22Packages, 'package.json')).resolve;
const { createMCPClient, ElicitationRequestSchema } = await import(pathToFileURL(resolve('@ai-sdk/mcp')).href);

let transport;
if (options.transport === 'stdio') {
  const { StdioMCPTransport } = await import(pathToFileURL(resolve('@ai-sdk/mcp/mcp-stdio')).href);
  transport = new StdioMCPTransport({ command: options.node, args: options.args, stderr: 'pipe' });
} else {
  transport = { type: 'http', url: options.url, headers: { authorization: `Bearer ${options.token}` } };
}
const client = await createMCPClient({
  transport,
  clientName: 'ai-sdk-test-client',
  capabilities: { elicitation: {} },
});
const asked = [];
client.onElicitationRequest(ElicitationRequestSchema, async (request) => {
  asked.push(request.params.message);
  return { action: 'accept', content: { decision: 'allow-once' } };
});

const text = (result) => result.content.map((part) => part.text ?? '').join('');
const names = (await client.listTools()).tools.map((tool) => tool.name);
const added = text(await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 2, b: 3 } }));
// Through the AI SDK's own tool set, as generateText calls it.
const tools = await client.tools();
const viaToolSet = await tools.calculator__add_numbers.execute({ a: 4, b: 5 }, { toolCallId: 'c1', messages: [] });
const multiplied = text(await client.callTool({ name: 'calculator__multiply', arguments: { a: 6, b: 7 } }));

const controller = new AbortController();
const hanging = client.callTool({ name: 'recorder__hang', arguments: {}, options: { signal: controller.signal } }).then(
  () => 'answered',
  (error) => `rejected: ${error?.message ?? error}`,
);
const deadline = Date.now() + 30_000;
while (
  !(existsSync(options.eventsLog) && readFileSync(options.eventsLog, 'utf8').includes(' hang ')) &&
  Date.now() < deadline
) {
  await new Promise((done) => setTimeout(done, 50));
}
controller.abort(new Error('stopped by the test'));
const cancelled = await hanging;

// A rug pull: `mutate` rewrites `fetch_data`'s description upstream. The gateway withholds the changed tool: it
// leaves the list (once the server's list_changed has been read) and a call to it is refused.
const listedBeforeChange = names.includes('rug__fetch_data');
await client.callTool({ name: 'rug__mutate', arguments: {} });
let withheld = false;
for (const until = Date.now() + 30_000; !withheld && Date.now() < until; ) {
  withheld = !(await client.listTools()).tools.some((tool) => tool.name === 'rug__fetch_data');
  if (!withheld) await new Promise((done) => setTimeout(done, 100));
}
const changedCall = await client.callTool({ name: 'rug__fetch_data', arguments: {} });
const changedCallAnswer = { isError: changedCall.isError === true, text: text(changedCall) };
await client.close();
process.stdout.write(
  `RESULT ${JSON.stringify({ names, added, viaToolSet: JSON.stringify(viaToolSet), multiplied, asked, cancelled, listedBeforeChange, withheld, changedCallAnswer, node: process.version })}\n`,
);
