/**
 * What the MCP client library raised by itself about a request, in the host's words, naming what was wrong: the
 * library words its own checks as if nobody in particular made them, and throws those of a call's `outputSchema` as
 * the `ProtocolError` a server's JSON-RPC error also becomes. The caller has made sure a `ProtocolError` handed here
 * is not one the server answered with (see server-error-answers.ts).
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * `Client.callTool`'s own errors, by the words it uses (2.x): each is about the tool's `outputSchema`. Those it raises
 * when the schema validator throws are not among them: the host's never throws (see output-schema-validator.ts).
 */
const CALL_CHECKS: { words: RegExp; say: (detail: string) => string }[] = [
  {
    words: /^Structured content does not match the tool's output schema: /,
    say: (detail) => `the server's result does not match the tool's outputSchema: ${detail}`,
  },
  {
    words: /^Tool .* has an output schema but did not return structured content$/s,
    say: () => "the server's result has no structuredContent, which the tool's outputSchema requires",
  },
];

/** The library's words for a capability the server did not declare. */
const UNSUPPORTED_CAPABILITY = /^Server does not support (.+) \(required for (.+)\)$/s;
/** The library's words for a result of the wrong shape. */
const INVALID_RESULT = /^Invalid result for ([^:]+): /;

/**
 * The host's words for one of the library's own errors, or undefined for an error that is none of those (the
 * connection closed, a timeout: the caller has its own words for them).
 */
export function describeLibraryError(error: unknown, server: string): string | undefined {
  if (error instanceof ProtocolError) {
    for (const { words, say } of CALL_CHECKS) {
      const found = words.exec(error.message);
      if (found !== null) return say(error.message.slice(found[0].length));
    }
    return `the MCP client library raised an error of its own, not the server: ${error.message}`;
  }
  if (!(error instanceof SdkError)) return undefined;
  switch (error.code) {
    case SdkErrorCode.InvalidResult: {
      const found = INVALID_RESULT.exec(error.message);
      return found === null
        ? `the server's result is not valid: ${error.message}`
        : `the server's result is not a valid ${found[1]} result: ${error.message.slice(found[0].length)}`;
    }
    case SdkErrorCode.UnsupportedResultType:
      return `the server's result is of a type the host does not handle: ${error.message}`;
    case SdkErrorCode.InputRequiredRoundsExceeded:
      return `the server asked for input more often than the host answers: ${error.message}`;
    case SdkErrorCode.CapabilityNotSupported: {
      const found = UNSUPPORTED_CAPABILITY.exec(error.message);
      return found === null
        ? `the request was not sent: ${error.message}`
        : `server "${server}" does not support ${found[1]} (it did not declare the capability ${found[2]} needs), so the request was not sent`;
    }
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      return `the request was not sent: ${error.message}`;
    default:
      return undefined;
  }
}
