/**
 * Which 2026-07-28 client a request is of, for keeping its log level between its requests: the connection over stdio,
 * else who sent it (the principal and the OAuth client). Written as JSON, so that names holding spaces or quotes cannot
 * make two callers one (principal "a b" with client "c" against principal "a" with client "b c").
 */
export function modernClientKey(
  connection: string | undefined,
  principal: string | undefined,
  clientId: string | undefined,
): string {
  const caller =
    connection === undefined ? { principal: principal ?? null, clientId: clientId ?? null } : { connection };
  return `2026-07-28 ${JSON.stringify(caller)}`;
}
