/**
 * The page's end of a view's message channel: it sends only to the sandbox proxy's window at the sandbox origin,
 * and takes only messages whose sending window is that proxy and whose origin is the sandbox's. A message the view
 * (or anyone else) posts straight to this page, with any claimed content, is ignored.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

export class SandboxTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.target || event.origin !== this.origin) return;
    const data = event.data as { jsonrpc?: unknown } | null;
    if (typeof data !== 'object' || data === null || data.jsonrpc !== '2.0') return;
    this.onmessage?.(data as JSONRPCMessage);
  };

  constructor(
    private readonly target: Window,
    private readonly origin: string,
  ) {}

  async start(): Promise<void> {
    window.addEventListener('message', this.listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.target.postMessage(message, this.origin);
  }

  async close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}
