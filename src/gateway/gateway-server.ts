/**
 * The SDK `Server` each gateway session answers with. It keeps the `__proto__` keys of a call answer's
 * `structuredContent` and content blocks, which the library's check of a `tools/call` result would drop (it copies
 * each map and skips that key): the handler hands them over renamed (see escape-prototype-keys.ts) and they are named back
 * here, once the check has passed, so each key reaches the client as the data key the server sent.
 */
import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';
import { unescapePrototypeKeys } from '../json/escape-prototype-keys.js';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class GatewayServer extends Server {
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const checked = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return checked;
    // The rest of the answer is the host's own (text and images it built): nothing in it was renamed.
    return async (request, ctx) => unescapePrototypeKeys(await checked(request, ctx));
  }
}
