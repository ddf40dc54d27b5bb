/** What kind of JSON-RPC message a value a client sent or the gateway writes is, by its members alone. */

/** An answer: an id, no method, and a result or an error. */
export function isJsonRpcResponse(message: unknown): message is Record<string, unknown> & { id: unknown } {
  return (
    isObject(message) && message.method === undefined && 'id' in message && ('result' in message || 'error' in message)
  );
}

/** A request: a method and an id (a notification has no id). */
export function isJsonRpcRequest(
  message: unknown,
): message is Record<string, unknown> & { id: unknown; method: unknown } {
  return isObject(message) && 'method' in message && 'id' in message;
}

/** A notification: a method and no id. */
export function isJsonRpcNotification(message: unknown): boolean {
  return isObject(message) && typeof message.method === 'string' && !('id' in message);
}

function isObject(message: unknown): message is Record<string, unknown> {
  return typeof message === 'object' && message !== null && !Array.isArray(message);
}
