import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/client';

/** A Streamable HTTP client transport to `url` that sends `token` as its bearer token on every request. */
export function bearerTransport(
  url: string | URL,
  token: string,
  options: Omit<StreamableHTTPClientTransportOptions, 'requestInit'> = {},
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    ...options,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
}
