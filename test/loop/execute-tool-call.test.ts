/**
 * One tool call through `createToolCallExecutor`, against a real MCP server over stdio: the duties run in their
 * order (parse → route → check → authorize → send → shape → record), a call stopped at any step never reaches the
 * server, a failure becomes a result for the model, and only a call marked safe to retry is sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCatalog } from '../../src/catalog/tool-catalog.js';
import type { CallToolOptions } from '../../src/connections/server-connection.js';
import { ServerConnection } from '../../src/connections/server-connection.js';
import { mapToolResult } from '../../src/content/map-tool-result.js';
import type { AgentEvent } from '../../src/loop/events.js';
import {
  type CallRecord,
  createToolCallExecutor,
  type ToolCallDependencies,
} from '../../src/loop/execute-tool-call.js';
import type { ToolCallContext } from '../../src/loop/tool-call-types.js';
import type { Authorization } from '../../src/policy/authorize-tool-call.js';
import type { ToolCallPart } from '../../src/providers/types.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';

const flexible = bundledFixture(`${repoRoot}/test/fixtures/host/flexible-server.mjs`);

let connection: ServerConnection;
let catalog: ToolCatalog;

beforeAll(async () => {
  connection = new ServerConnection(stdioServer('timer', [flexible]));
  expect(await connection.connect()).toBe(true);
  catalog = ToolCatalog.build([{ server: 'timer', tools: await connection.listTools() }]);
});

afterAll(async () => {
  await connection?.close();
});

function allowed(safeToRetry = false): Authorization {
  const reason = 'allowed for the test';
  return {
    allowed: true,
    decision: { action: 'allow', reason, source: 'default', warnings: [], safeToRetry },
    decidedBy: 'default',
    reason,
    warnings: [],
    hiddenContent: [],
  };
}

function denied(): Authorization {
  const reason = 'denied by rule timer__*';
  return {
    allowed: false,
    decision: { action: 'deny', reason, source: 'rule', warnings: [], safeToRetry: false },
    decidedBy: 'rule',
    reason,
    denialMessage: 'Denied by rule timer__*.',
    warnings: [],
    hiddenContent: [],
  };
}

/** The executor with every duty logged in the order it ran; the server is the real one, its calls counted. */
function harness(overrides: Partial<ToolCallDependencies> = {}) {
  const steps: string[] = [];
  const records: CallRecord[] = [];
  const sent: Array<{ name: string; options: CallToolOptions }> = [];
  const dependencies: ToolCallDependencies = {
    catalog: () => catalog,
    server: (name) =>
      name === 'timer'
        ? {
            callTool: (tool, args, options) => {
              steps.push('send');
              sent.push({ name: tool, options });
              return connection.callTool(tool, args, options);
            },
          }
        : undefined,
    callOptions: () => ({ timeoutMs: 10_000 }),
    validateArguments: () => {
      steps.push('check');
      return undefined;
    },
    confirmCurrent: async () => {
      steps.push('confirm');
      return undefined;
    },
    authorize: async () => {
      steps.push('authorize');
      return allowed();
    },
    shapeResult: (raw, entry) => {
      steps.push('shape');
      const mapped = mapToolResult(raw, { outputSchema: entry.tool.outputSchema });
      return { content: mapped.content, isError: mapped.isError, resultBytes: 1 };
    },
    record: async (record) => {
      // The record is written before the result goes back: the executor awaits it.
      await new Promise((resolve) => setImmediate(resolve));
      steps.push('record');
      records.push(record);
    },
    ...overrides,
  };
  const events: AgentEvent[] = [];
  const controller = new AbortController();
  const context: ToolCallContext = {
    runId: 'run-1',
    turn: 1,
    callsInTurn: 1,
    signal: controller.signal,
    emit: (event) => events.push(event),
  };
  return { execute: createToolCallExecutor(dependencies), steps, records, sent, events, context, controller };
}

const call = (name: string, argumentsText: string, id = 'call-1'): ToolCallPart => ({
  type: 'tool-call',
  id,
  name,
  argumentsText,
});

describe('executeToolCall', () => {
  it("times the call from when it is sent: the user's wait to approve it is not in the record's span", async () => {
    let approvedAt = 0;
    const { execute, records, context } = harness({
      authorize: async () => {
        // A user who takes a while to answer.
        await new Promise((resolve) => setTimeout(resolve, 400));
        approvedAt = Date.now();
        return allowed();
      },
    });
    const began = Date.now();
    await execute(call('timer__sleep', '{"ms":5}'), context);
    const record = records[0]!;
    expect(record.outcome).toBe('ok');
    expect(record.startedAt.getTime()).toBeGreaterThanOrEqual(approvedAt);
    expect(approvedAt - began).toBeGreaterThanOrEqual(390);
    // The span ends when the result is in, so it is no longer than the time since the approval.
    expect(record.durationMs).toBeLessThanOrEqual(Date.now() - approvedAt + 1);
  });

  it('runs each duty in order and returns the mapped result after the record is written', async () => {
    const { execute, steps, records, sent, events, context } = harness();
    const executed = await execute(call('timer__sleep', '{"ms":5}'), context);

    expect(steps).toEqual(['check', 'confirm', 'authorize', 'confirm', 'send', 'shape', 'record']);
    expect(executed.outcome).toBe('ok');
    expect(executed.server).toBe('timer');
    expect(executed.result).toMatchObject({ callId: 'call-1', toolName: 'timer__sleep', isError: false });
    const text = (executed.result.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toMatchObject({ ms: 5 });
    // The original name goes to the server, with the signal and the settings of this call.
    expect(sent.map((entry) => entry.name)).toEqual(['sleep']);
    expect(sent[0]!.options).toMatchObject({ timeoutMs: 10_000, safeToRetry: false, signal: context.signal });
    expect(events).toContainEqual({
      type: 'tool-call-request',
      callId: 'call-1',
      server: 'timer',
      tool: 'sleep',
      arguments: { ms: 5 },
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: 'ok', arguments: { ms: 5 }, authorization: { allowed: true } });
    expect(records[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('answers an unknown name with the close names, asking nobody and sending nothing', async () => {
    const { execute, steps, records, context } = harness();
    const executed = await execute(call('timer__slep', '{}'), context);
    expect(executed.outcome).toBe('invalid');
    expect(executed.result.isError).toBe(true);
    expect((executed.result.content[0] as { text: string }).text).toBe(
      'Unknown tool "timer__slep". Did you mean: timer__sleep?',
    );
    expect(steps).toEqual(['record']);
    expect(records[0]!.entry).toBeUndefined();
    expect(records[0]!.authorization).toBeUndefined();
  });

  it('says why a known-but-missing tool is missing, when the catalog knows', async () => {
    const { execute, context } = harness({ describeMissing: () => 'it is withheld until the user approves it' });
    const executed = await execute(call('timer__new_tool', '{}'), context);
    expect((executed.result.content[0] as { text: string }).text).toBe(
      'Unknown tool "timer__new_tool": it is withheld until the user approves it',
    );
  });

  it('refuses arguments that are not JSON, or that do not fit the schema, before anyone is asked', async () => {
    const bad = harness();
    const unparsed = await bad.execute(call('timer__sleep', '{"ms": 5'), bad.context);
    expect(unparsed.outcome).toBe('invalid');
    expect(unparsed.result.isError).toBe(true);
    expect(bad.steps).toEqual(['record']);

    const misfit = harness({ validateArguments: () => 'ms: must be number (got a string)' });
    const refused = await misfit.execute(call('timer__sleep', '{"ms":"5"}'), misfit.context);
    expect(refused.outcome).toBe('invalid');
    expect((refused.result.content[0] as { text: string }).text).toBe('ms: must be number (got a string)');
    expect(misfit.steps).toEqual(['record']);
    expect(misfit.sent).toEqual([]);
  });

  it('sends nothing when the policy denies, and gives the model the denial text', async () => {
    const { execute, steps, sent, records, context } = harness({
      authorize: async () => {
        steps.push('authorize');
        return denied();
      },
    });
    const executed = await execute(call('timer__sleep', '{"ms":5}'), context);
    expect(executed.outcome).toBe('denied');
    expect((executed.result.content[0] as { text: string }).text).toBe('Denied by rule timer__*.');
    expect(sent).toEqual([]);
    expect(steps).toEqual(['check', 'confirm', 'authorize', 'record']);
    expect(records[0]!.authorization?.reason).toBe('denied by rule timer__*');
  });

  it('refuses a tool whose server changed it while the user was being asked', async () => {
    let confirmations = 0;
    const { execute, sent, context } = harness({
      confirmCurrent: async () => {
        confirmations += 1;
        return confirmations === 2 ? 'the server changed this tool after it was approved' : undefined;
      },
    });
    const executed = await execute(call('timer__sleep', '{"ms":5}'), context);
    expect(executed.outcome).toBe('denied');
    expect((executed.result.content[0] as { text: string }).text).toBe(
      'the server changed this tool after it was approved',
    );
    expect(sent).toEqual([]);
  });

  it('passes on the warnings of the decision as events', async () => {
    const { execute, events, context } = harness({
      authorize: async () => ({ ...allowed(), warnings: ['the tool reaches outside systems'] }),
    });
    await execute(call('timer__pid', '{}'), context);
    expect(events).toContainEqual({
      type: 'tool-call-warning',
      callId: 'call-1',
      message: 'the tool reaches outside systems',
    });
  });

  it('times out a call and, when it is not safe to retry, sends it once only', async () => {
    const { execute, sent, context } = harness({ callOptions: () => ({ timeoutMs: 150 }) });
    const executed = await execute(call('timer__sleep', '{"ms":3000}'), context);
    expect(executed.outcome).toBe('timeout');
    expect(executed.result.isError).toBe(true);
    expect((executed.result.content[0] as { text: string }).text).toMatch(
      /^The tool call failed: the tool did not answer within .*notifications\/cancelled/,
    );
    expect(sent).toHaveLength(1);
  });

  it('sends a call that timed out once more when the decision says it is safe to retry, and says so', async () => {
    const { execute, sent, events, context } = harness({
      callOptions: () => ({ timeoutMs: 150 }),
      authorize: async () => allowed(true),
    });
    const executed = await execute(call('timer__sleep', '{"ms":3000}'), context);
    expect(executed.outcome).toBe('timeout');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.options.safeToRetry).toBe(true);
    const warnings = events.filter((event) => event.type === 'tool-call-warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: expect.stringMatching(/^timer__sleep timed out; trying once more/) });
  });

  it('ends a call the caller aborts as cancelled, without sending it again', async () => {
    const { execute, sent, events, context, controller } = harness({ authorize: async () => allowed(true) });
    const running = execute(call('timer__sleep', '{"ms":5000}'), context);
    // Abort once the request has gone out: the event says the server has been sent the call.
    await new Promise<void>((resolve) => {
      const check = () =>
        events.some((event) => event.type === 'tool-call-request') ? resolve() : setImmediate(check);
      check();
    });
    controller.abort(new Error('the user pressed Ctrl-C'));
    const executed = await running;
    expect(executed.outcome).toBe('cancelled');
    expect(executed.result.isError).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('runs a host tool without any server, and turns its exception into an error result', async () => {
    const hostCatalog = catalog.withEntries([
      {
        name: 'read_stored_result',
        server: 'mcp-host',
        tool: { name: 'read_stored_result', inputSchema: { type: 'object' } },
      },
    ]);
    let thrown = false;
    const { execute, steps, sent, context } = harness({
      catalog: () => hostCatalog,
      hostTools: new Map([
        [
          'read_stored_result',
          (args: Record<string, unknown>) => {
            if (args.fail) {
              thrown = true;
              throw new Error('no stored result has that id');
            }
            return { content: [{ type: 'text' as const, text: `read ${String(args.id)}` }], isError: false };
          },
        ],
      ]),
    });
    const ok = await execute(call('read_stored_result', '{"id":"r1"}'), context);
    expect(ok.outcome).toBe('ok');
    expect((ok.result.content[0] as { text: string }).text).toBe('read r1');
    // Host tools check their own arguments and run no server code, so neither check nor confirm runs for them.
    expect(steps).toEqual(['authorize', 'record']);
    const failed = await execute(call('read_stored_result', '{"fail":true}', 'call-2'), context);
    expect(thrown).toBe(true);
    expect(failed.outcome).toBe('error');
    expect((failed.result.content[0] as { text: string }).text).toBe('no stored result has that id');
    expect(sent).toEqual([]);
  });

  it('reports a server that is not connected as an error result', async () => {
    const { execute, context } = harness({ server: () => undefined });
    const executed = await execute(call('timer__pid', '{}'), context);
    expect(executed.outcome).toBe('error');
    expect((executed.result.content[0] as { text: string }).text).toBe(
      'The server "timer" for this tool is not connected.',
    );
  });
});
