/** The one size limit for a protocol message from a server, whatever the transport, and how it is reported. */

/** A single protocol message larger than this is refused. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * The error text for a message past the limit. `outcome` says what the host did about it (closed the connection,
 * stopped reading the response…).
 */
export function tooLargeMessageText(limit: number, bytesSoFar: number, outcome: string): string {
  return `sent a message larger than the maximum of ${limit} bytes (${bytesSoFar} bytes so far), so ${outcome} (raise the server's \`maxMessageBytes\` if such messages are expected)`;
}
