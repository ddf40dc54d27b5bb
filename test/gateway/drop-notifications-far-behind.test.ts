/**
 * What a client far behind on a POST's event stream may lose: only whole events carrying notifications. Responses,
 * the gateway's requests, priming events, comments and pieces of events are always written.
 */
import { describe, expect, it } from 'vitest';
import { holdsOnlyNotifications } from '../../src/gateway/drop-notifications-far-behind.js';

const event = (message: unknown, id?: string) =>
  `event: message\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
const progress = { method: 'notifications/progress', params: { progressToken: 'p', progress: 1 }, jsonrpc: '2.0' };

describe('holdsOnlyNotifications', () => {
  it('is true of events carrying notifications, as text or bytes', () => {
    expect(holdsOnlyNotifications(event(progress))).toBe(true);
    expect(holdsOnlyNotifications(new TextEncoder().encode(event(progress, 'e1')))).toBe(true);
    expect(holdsOnlyNotifications(event(progress) + event({ ...progress, method: 'notifications/message' }))).toBe(
      true,
    );
  });

  it('is false of anything that may be an answer, a question or part of one', () => {
    expect(holdsOnlyNotifications(event({ result: {}, jsonrpc: '2.0', id: 7 }))).toBe(false);
    expect(holdsOnlyNotifications(event({ error: { code: -1, message: 'no' }, jsonrpc: '2.0', id: 7 }))).toBe(false);
    expect(holdsOnlyNotifications(event({ method: 'elicitation/create', params: {}, jsonrpc: '2.0', id: 'g' }))).toBe(
      false,
    );
    expect(holdsOnlyNotifications(event(progress) + event({ result: {}, jsonrpc: '2.0', id: 7 }))).toBe(false);
    // The piece of an event written with its first half.
    expect(holdsOnlyNotifications(event(progress).slice(0, 40))).toBe(false);
    expect(holdsOnlyNotifications('id: e1\ndata: \n\n')).toBe(false);
    expect(holdsOnlyNotifications(': keepalive\n\n')).toBe(false);
    expect(holdsOnlyNotifications('data: not json\n\n')).toBe(false);
  });
});
