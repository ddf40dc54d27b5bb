/**
 * The stdio connection as `serveStdio` sees it, with one addition: a `subscriptions/listen` request of the
 * 2026-07-28 revision that names resources subscribes their servers before the SDK acknowledges it (the SDK serves
 * the listen itself and knows nothing of upstream servers), as the HTTP gateway does. The subscriptions are given
 * back when the listen ends: cancelled by the client, answered by the SDK (refused, or ended at shutdown), or the
 * connection closed. Messages keep their order: those after a listen wait until its subscriptions are made.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { ProfileHost } from './gateway-hosts.js';
import { openListenSubscriptions } from './listen-subscriptions.js';

/** Whether a request carries the 2026-07-28 revision's claim (a 2025 connection's requests do not). */
function claimsModernRevision(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

export class StdioListenTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves when the connection has closed (the client closed standard input, or the gateway closed it). */
  readonly closed: Promise<void>;
  private markClosed!: () => void;
  /** Per open listen request, how to give its subscriptions back. */
  private readonly releases = new Map<RequestId, () => void>();
  /** Inbound work not yet handed on: a listen subscribing its resources, and whatever came after it. */
  private pending: Promise<void> | undefined;

  constructor(
    private readonly wire: Transport,
    private readonly profile: ProfileHost,
    /** False once the connection is served as the 2025 revision: its listen requests are not this revision's. */
    private readonly modern: () => boolean,
    /** Called as the connection closes, before the server it serves is told. */
    private readonly closing?: () => void,
  ) {
    this.closed = new Promise((resolve) => {
      this.markClosed = resolve;
    });
  }

  async start(): Promise<void> {
    this.wire.onmessage = (message) => this.received(message);
    this.wire.onerror = (error) => this.onerror?.(error);
    this.wire.onclose = () => {
      this.closing?.();
      this.releaseAll();
      this.onclose?.();
      this.markClosed();
    };
    await this.wire.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The listen's only answer is its end.
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) this.release(message.id);
    }
    await this.wire.send(message, options);
  }

  async close(): Promise<void> {
    this.releaseAll();
    await this.wire.close();
  }

  setProtocolVersion(version: string): void {
    this.wire.setProtocolVersion?.(version);
  }

  private received(message: JSONRPCMessage): void {
    if (
      isJSONRPCRequest(message) &&
      message.method === 'subscriptions/listen' &&
      this.modern() &&
      claimsModernRevision(message.params)
    ) {
      this.queue(async () => {
        const opened = await openListenSubscriptions(this.profile, message).catch(() => undefined);
        if (opened === undefined) return this.onmessage?.(message);
        // A reused id replaces its listen, at the SDK as here.
        this.release(message.id);
        this.releases.set(message.id, opened.release);
        this.onmessage?.(opened.body as JSONRPCMessage);
      });
      return;
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (cancelled !== undefined) this.queue(async () => this.release(cancelled));
    }
    if (this.pending === undefined) this.onmessage?.(message);
    else this.queue(async () => this.onmessage?.(message));
  }

  private queue(work: () => Promise<void>): void {
    const next = (this.pending ?? Promise.resolve()).then(work).catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
    this.pending = next;
    void next.then(() => {
      if (this.pending === next) this.pending = undefined;
    });
  }

  private release(id: RequestId): void {
    const release = this.releases.get(id);
    if (release === undefined) return;
    this.releases.delete(id);
    release();
  }

  private releaseAll(): void {
    for (const id of [...this.releases.keys()]) this.release(id);
  }
}
