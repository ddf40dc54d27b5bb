/**
 * The SDK `Server` each gateway session answers with. It says when it begins to serve a transport (`onconnect`), and
 * keeps the `__proto__` keys of a call answer's `structuredContent` and content blocks, which the library's check of a
 * `tools/call` result would drop (it copies each map and skips that key): the handler hands them over renamed (see
 * escape-prototype-keys.ts) and they are named back here, once the check has passed, so each key reaches the client as
 * the data key the server sent.
 */
import {
  type JSONRPCRequest,
  type Result,
  Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { unescapePrototypeKeys } from '../json/escape-prototype-keys.js';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class GatewayServer extends Server {
  /**
   * Called as the server begins to serve a transport, before `onclose` can be. The SDK makes a server for a
   * 2026-07-28 `subscriptions/listen` only to read its capabilities, and closes it unconnected, which calls no
   * `onclose`: what is undone on close is done here, not when the server is made.
   */
  onconnect?: () => void;

  override async connect(transport: Transport): Promise<void> {
    this.onconnect?.();
    await super.connect(transport);
  }

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const checked = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return checked;
    // The rest of the answer is the host's own (text and images it built): nothing in it was renamed.
    return async (request, ctx) => unescapePrototypeKeys(await checked(request, ctx));
  }
}
