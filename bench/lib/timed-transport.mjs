/**
 * A client transport wrapper that sums the time between sending each `tools/call` request and
 * receiving its response: the tool's time (server, transport), which the loop benchmark takes out
 * of the host's time. Everything else passes straight through.
 */
export function timeToolCalls(inner) {
  const pending = new Map();
  let onmessage;
  const timed = {
    /** Milliseconds between `tools/call` requests and their responses, summed. */
    toolMs: 0,
    toolCalls: 0,
    start: () => inner.start(),
    close: () => inner.close(),
    send(message, options) {
      if (message.method === 'tools/call') pending.set(message.id, performance.now());
      return inner.send(message, options);
    },
    get onmessage() {
      return onmessage;
    },
    set onmessage(handler) {
      onmessage = handler;
      inner.onmessage = (message, extra) => {
        const sent = message.id === undefined ? undefined : pending.get(message.id);
        if (sent !== undefined && message.method === undefined) {
          pending.delete(message.id);
          timed.toolMs += performance.now() - sent;
          timed.toolCalls += 1;
        }
        handler?.(message, extra);
      };
    },
    get onclose() {
      return inner.onclose;
    },
    set onclose(handler) {
      inner.onclose = handler;
    },
    get onerror() {
      return inner.onerror;
    },
    set onerror(handler) {
      inner.onerror = handler;
    },
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion(version) {
      inner.setProtocolVersion?.(version);
    },
  };
  return timed;
}
