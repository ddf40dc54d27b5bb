/**
 * An official v2 SDK client that can be asked form questions (the host's approvals of a call), keeping each question's
 * message in `asked` and giving each the one answer; not yet connected.
 */
import { Client, type ElicitResult } from '@modelcontextprotocol/client';

export function approvingClient(name: string, answer: ElicitResult): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return answer;
  });
  return { client, asked };
}
