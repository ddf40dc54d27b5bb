/**
 * One MCP server as the host sees it: how to reach it, its state, and the calls it serves.
 *
 * This is the seam between the host and the MCP client SDK. Everything above speaks
 * `ServerConnection`; only this folder knows transports, process groups and SDK error codes.
 */
import {
  type CallToolResult,
  type Client,
  type ClientCapabilities,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/types.js';
import { CallFailure } from './call-failure.js';
import { createTransport } from './create-transport.js';
import type { ProcessGroupStdioTransport } from './process-group-stdio-transport.js';

/** How long `initialize` (spawn included) may take before the server is reported as failed. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

export type ServerState = 'idle' | 'connecting' | 'connected' | 'failed' | 'crashed' | 'closed';

export interface ServerStatus {
  name: string;
  state: ServerState;
  transport: ServerConfig['transport'];
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  toolCount?: number;
  lastError?: string;
  stderrTail?: string;
  pid?: number;
}

export interface CallToolOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Hard maximum when progress notifications keep resetting the timeout. */
  maxTotalTimeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface ServerConnectionOptions {
  clientName?: string;
  clientVersion?: string;
  connectTimeoutMs?: number;
  onDiagnostic?: (server: string, message: string) => void;
  onToolsChanged?: (server: string) => void;
  capabilities?: ClientCapabilities;
  configureClient?: (client: Client, config: ServerConfig) => void;
  transportFactory?: (config: ServerConfig) => Transport | undefined;
}

export class ServerConnection {
  private client?: Client;
  private transport?: Transport;
  private currentState: ServerState = 'idle';
  private lastError?: string;
  private toolCount?: number;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ServerConnectionOptions = {},
  ) {}

  get name(): string {
    return this.config.name;
  }

  get state(): ServerState {
    return this.currentState;
  }

  status(): ServerStatus {
    const stdio = this.stdioTransport();
    return {
      name: this.name,
      state: this.currentState,
      transport: this.config.transport,
      protocolVersion: this.client?.getNegotiatedProtocolVersion(),
      serverInfo: this.client?.getServerVersion(),
      toolCount: this.toolCount,
      lastError: this.lastError,
      stderrTail: stdio?.stderr.tail() || undefined,
      pid: stdio?.pid,
    };
  }

  /** Connects and initialises. Never throws: a failure is recorded in `status()`. */
  async connect(): Promise<boolean> {
    this.currentState = 'connecting';
    try {
      const { client, transport } = await createTransport(this.config, {
        connectTimeoutMs: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        clientInfo: { name: this.options.clientName ?? 'mcp-host', version: this.options.clientVersion ?? '0.0.0' },
        onDiagnostic: (message) => this.options.onDiagnostic?.(this.name, message),
        onToolsChanged: () => this.options.onToolsChanged?.(this.name),
        capabilities: this.options.capabilities,
        configureClient: this.options.configureClient,
        transportFactory: this.options.transportFactory,
      });
      this.client = client;
      this.transport = transport;
      client.onclose = () => this.handleClose();
      this.currentState = 'connected';
      this.lastError = undefined;
      return true;
    } catch (error) {
      this.currentState = 'failed';
      this.lastError = describeConnectError(error);
      return false;
    }
  }

  /** Every page of `tools/list`. */
  async listTools(): Promise<Tool[]> {
    const client = this.requireClient();
    const result = await client.listTools();
    this.toolCount = result.tools.length;
    return result.tools;
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<CallToolResult> {
    const client = this.requireClient();
    try {
      return await client.callTool(
        { name, arguments: args },
        {
          timeout: options.timeoutMs,
          signal: options.signal,
          resetTimeoutOnProgress: options.onProgress !== undefined || options.maxTotalTimeoutMs !== undefined,
          maxTotalTimeout: options.maxTotalTimeoutMs,
          onprogress: options.onProgress,
        },
      );
    } catch (error) {
      throw this.toCallFailure(error, options);
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.currentState = 'closed';
    this.client = undefined;
    if (client) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
    }
    await this.transport?.close().catch(() => undefined);
  }

  /** The live SDK client, for the host's other MCP features (resources, prompts). */
  get sdkClient(): Client | undefined {
    return this.client;
  }

  private requireClient(): Client {
    if (!this.client || this.currentState !== 'connected') {
      const why = this.lastError ? `: ${this.lastError}` : '';
      throw new CallFailure(
        'not-connected',
        `server "${this.name}" is not connected (${this.currentState})${why}`,
        this.name,
      );
    }
    return this.client;
  }

  private stdioTransport(): ProcessGroupStdioTransport | undefined {
    return this.config.transport === 'stdio' ? (this.transport as ProcessGroupStdioTransport | undefined) : undefined;
  }

  private handleClose(): void {
    if (this.currentState === 'closed') return;
    this.currentState = 'crashed';
    this.lastError = this.describeExit();
  }

  private describeExit(): string {
    const stdio = this.stdioTransport();
    const exit = stdio?.exit;
    const how = exit
      ? exit.signal
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code}`
      : 'closed the connection';
    const tail = stdio?.stderr.tail(10);
    return `server "${this.name}" ${how}${tail ? `; stderr tail:\n${tail}` : ''}`;
  }

  private toCallFailure(error: unknown, options: CallToolOptions): Error {
    if (error instanceof CallFailure) return error;
    if (options.signal?.aborted) {
      return new CallFailure('cancelled', 'the call was cancelled', this.name, { cause: error });
    }
    if (error instanceof SdkError) {
      if (error.code === SdkErrorCode.RequestTimeout) {
        return new CallFailure(
          'timeout',
          `the tool did not answer within its timeout of ${options.timeoutMs} ms; the server was sent notifications/cancelled`,
          this.name,
          { cause: error },
        );
      }
      if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
        // The close handler may run just after the rejection; give the exit status a moment to land.
        return new CallFailure(
          this.config.transport === 'stdio' ? 'crashed' : 'disconnected',
          this.describeExit(),
          this.name,
          {
            cause: error,
          },
        );
      }
    }
    if (error instanceof ProtocolError) {
      return new CallFailure('protocol', `the server answered with an error: ${error.message}`, this.name, {
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new CallFailure('protocol', message, this.name, { cause: error });
  }
}

function describeConnectError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
