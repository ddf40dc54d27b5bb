import { Client, type ClientOptions, type LoggingMessageNotification } from '@modelcontextprotocol/client';

/** An SDK client and the log messages it has heard, in order. */
export interface LoggingClient {
  client: Client;
  logs: LoggingMessageNotification['params'][];
}

/** A new SDK client called `name` that keeps every log message sent to it; not yet connected. */
export function loggingClient(name: string, options: ClientOptions = {}): LoggingClient {
  const made: LoggingClient = { client: new Client({ name, version: '1.0.0' }, options), logs: [] };
  made.client.setNotificationHandler('notifications/message', (notification) => {
    made.logs.push(notification.params);
  });
  return made;
}
