/**
 * The SDK `Server` each gateway session answers with. It keeps the `__proto__` keys of a call answer's
 * `structuredContent`, which the library's check of a `tools/call` result would drop (it copies the map and skips
 * that key): the handler hands `structuredContent` over renamed (see escape-prototype-keys.ts) and it is named back
 * here, once the check has passed, so each key reaches the client as the data key the server sent.
 */
import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json/is-plain-object.js';
import { namedBackStructuredContent } from './structured-content.js';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class GatewayServer extends Server {
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const checked = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return checked;
    return async (request, ctx) => {
      const result = await checked(request, ctx);
      return isPlainObject(result) ? namedBackStructuredContent(result) : result;
    };
  }
}
