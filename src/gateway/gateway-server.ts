/**
 * The SDK `Server` each gateway session answers with. It keeps the `__proto__` keys of a call answer's
 * `structuredContent` and content blocks, which the library's check of a `tools/call` result would drop (it copies
 * each map and skips that key): the handler hands them over renamed (see escape-prototype-keys.ts) and they are named back
 * here, once the check has passed, so each key reaches the client as the data key the server sent.
 */
import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json/is-plain-object.js';
import { namedBackContent } from './server-content-blocks.js';
import { namedBackStructuredContent } from './structured-content.js';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class GatewayServer extends Server {
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const checked = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return checked;
    return async (request, ctx) => {
      const result = await checked(request, ctx);
      return isPlainObject(result) ? namedBackContent(namedBackStructuredContent(result)) : result;
    };
  }
}
