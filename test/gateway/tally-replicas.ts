/**
 * Stateless gateway replicas in this process sharing one store, each with its own copy of the counter fixture as the
 * stateful server `tally`, and clients whose requests the test sends to the replica it picks. A test starts them in
 * `beforeAll` and closes them in `afterAll`, which also stops the replicas and clients that started before a failure.
 */
import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { GatewayHosts } from '../../src/gateway/gateway-hosts.js';
import type { GatewayHttp } from '../../src/gateway/gateway-http.js';
import type { GatewayStore } from '../../src/gateway/store/gateway-store.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeConfig } from '../helpers/project.js';
import { startInProcessReplica } from './in-process-replica.js';

export class TallyReplicas {
  private readonly hosts: GatewayHosts[] = [];
  private readonly gateways: GatewayHttp[] = [];
  private readonly clients: Client[] = [];
  /** Each replica's `http://127.0.0.1:PORT`, in the order started. */
  readonly origins: string[] = [];

  constructor(
    private readonly store: GatewayStore,
    private readonly token: string,
  ) {}

  /** Starts `count` replicas, the `index`th with a state folder named `${stateDirPrefix}${index}-…`. */
  async start(
    count: number,
    options: { stateDirPrefix: string; relayLivenessIntervalMs?: number; onDiagnostic?: (message: string) => void },
  ): Promise<void> {
    const counter = { command: process.execPath, args: [fixtureServerPath('counter')], trust: 'trusted' };
    const configPath = await writeConfig({
      mcpServers: { tally: { ...counter, stateful: true } },
      gateway: { stateless: true },
    });
    for (let index = 0; index < count; index++) {
      const replica = await startInProcessReplica({
        configPath,
        store: this.store,
        token: this.token,
        stateDirPrefix: `${options.stateDirPrefix}${index}-`,
        ...(options.relayLivenessIntervalMs === undefined
          ? {}
          : { relayLivenessIntervalMs: options.relayLivenessIntervalMs }),
        ...(options.onDiagnostic === undefined ? {} : { onDiagnostic: options.onDiagnostic }),
      });
      this.hosts.push(replica.hosts);
      this.gateways.push(replica.gateway);
      this.origins.push(new URL(replica.gateway.url).origin);
    }
  }

  /**
   * A client connected with the replicas' token whose every request goes to `originOf` the request's JSON-RPC method
   * (`initialize` for the first).
   */
  async connect(
    name: string,
    originOf: (method: unknown) => string,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const routed: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }) : undefined;
      return fetch(`${originOf(body?.method)}${url.pathname}${url.search}`, init);
    };
    const client = new Client({ name, version: '1.0.0' });
    this.clients.push(client);
    const transport = bearerTransport(`${originOf('initialize')}/mcp`, this.token, { fetch: routed });
    await client.connect(transport);
    return { client, transport };
  }

  /** A client whose session is opened on the first replica, and whose every later request lands on the second. */
  async connectRelayedToOwner(name: string): Promise<Client> {
    const [owner, relaying] = this.origins;
    const { client } = await this.connect(name, (method) => (method === 'initialize' ? owner! : relaying!));
    return client;
  }

  async close(): Promise<void> {
    for (const client of this.clients) await client.close().catch(() => undefined);
    for (const gateway of this.gateways) await gateway.close();
    for (const host of this.hosts) await host.close();
    await this.store.close();
  }
}
