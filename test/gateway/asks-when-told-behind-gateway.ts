/**
 * The official v2 SDK client in front of the built CLI's HTTP gateway, which serves the asks-when-told fixture as
 * `asks`: the client answers sampling requests and keeps what it was asked and the log messages it heard, and holds
 * calls in flight on the fixture's gates. A test starts it in `beforeAll` and stops it in `afterAll`.
 */
import { join } from 'node:path';
import {
  Client,
  type ClientCapabilities,
  type StreamableHTTPClientTransportOptions,
} from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { callWaitsAtGate } from '../helpers/call-waits-at-gate.js';
import { type GatewayProcess, startGatewayProcess } from '../helpers/gateway-process.js';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';

const TOKEN = 'an-asks-when-told-behind-gateway-test-token';

export class AsksWhenToldBehindGateway {
  readonly client: Client;
  /** The prompts of the sampling requests the client was asked (and whatever else the test records there). */
  readonly asked: string[] = [];
  /** The data of the log messages it received. */
  readonly logs: unknown[] = [];
  private gateway: GatewayProcess | undefined;
  private stateDir = '';

  constructor(name: string, capabilities: ClientCapabilities) {
    this.client = new Client({ name, version: '1.0.0' }, { capabilities });
    this.client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content;
      const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
      this.asked.push(prompt);
      return { model: 'the-client-model', role: 'assistant', content: { type: 'text', text: `you asked "${prompt}"` } };
    });
    this.client.setNotificationHandler('notifications/message', (notification) => {
      this.logs.push(notification.params.data);
    });
  }

  /** Where the fixture writes `waiting <gate>` as a call starts waiting for a gate: set once `makeStateDir` ran. */
  get eventLog(): string {
    return join(this.stateDir, 'events.log');
  }

  /** Makes the gateway's state folder, which holds the fixture's event log. */
  async makeStateDir(prefix: string): Promise<void> {
    this.stateDir = await temporaryDirectory(prefix);
  }

  /** The fixture as a stdio server writing to `eventLog`. */
  stdioServer(): Record<string, unknown> {
    return {
      command: process.execPath,
      args: [fixtureServer('asks-when-told.mjs')],
      env: { EVENT_LOG: this.eventLog },
    };
  }

  /** Starts the gateway on `server` as `asks`, with `permissions`, and connects the client through `transport`. */
  async start(options: {
    server: Record<string, unknown>;
    permissions: unknown;
    transport: Omit<StreamableHTTPClientTransportOptions, 'requestInit'>;
  }): Promise<void> {
    const config = await writeConfig({
      mcpServers: { asks: { ...options.server, trust: 'trusted' } },
      permissions: options.permissions,
      gateway: { approvalTimeoutMs: 20_000 },
    });
    this.gateway = await startGatewayProcess(['--config', config, '--state-dir', this.stateDir], {
      MCP_HOST_GATEWAY_TOKEN: TOKEN,
    });
    await this.client.connect(bearerTransport(this.gateway.url, TOKEN, options.transport));
  }

  async stop(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.gateway?.stop();
  }

  /**
   * Has the fixture send a sampling request for `prompt` outside the call that asks, once that call waits at its
   * `sample` gate (opened here): `answer` is that call's result, the model's answer.
   */
  async askModelAside(prompt: string): Promise<{ answer: Promise<unknown> }> {
    const answer = this.client.callTool({
      name: 'asks__ask_model',
      arguments: { prompt, aside: true, after: 'sample' },
    });
    await callWaitsAtGate(this.eventLog, 'sample');
    await this.client.callTool({ name: 'asks__open', arguments: { gate: 'sample' } });
    return { answer };
  }

  /** Runs `work` while calls to `wait` on each of `gates` are in flight; opens them after, also when `work` fails. */
  async whileHeld(gates: string[], work: () => Promise<void>): Promise<void> {
    const held = gates.map((gate) => this.client.callTool({ name: 'asks__wait', arguments: { gate } }));
    try {
      for (const gate of gates) await callWaitsAtGate(this.eventLog, gate);
      await work();
    } finally {
      for (const gate of gates) await this.client.callTool({ name: 'asks__open', arguments: { gate } });
    }
    for (const call of held) expect(textOf(await call)).toBe('opened');
  }
}
