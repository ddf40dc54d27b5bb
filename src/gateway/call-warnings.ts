/**
 * What the host warns a calling client of during its call (sent once more after its server went away or timed out,
 * sent again after the user opened the URL a server asked for): what `tools call` prints as an `mcp-host:` line is a
 * log message of level `warning` to a gateway's client, on that call's own stream. The text may quote what a server
 * said, so it is passed on as plain text: without terminal control codes, as the CLI prints it.
 */
import type { ServerNotification } from '@modelcontextprotocol/server';
import { stripControlCodes } from '../text/strip-control-codes.js';

/** The logger a client sees the host's own warnings under, apart from its servers' (`SERVER` or `SERVER/LOGGER`). */
export const HOST_LOGGER = 'mcp-host';

export function callWarning(message: string): ServerNotification {
  return {
    method: 'notifications/message',
    params: { level: 'warning', logger: HOST_LOGGER, data: stripControlCodes(message) },
  };
}
