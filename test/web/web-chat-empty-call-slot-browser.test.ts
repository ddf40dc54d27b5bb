/**
 * A model served over the OpenAI Chat protocol that opens its calls with an empty call slot (neither name nor
 * arguments), in real Chromium: the answer leaves that slot out, and the arguments the call streamed are placed as
 * the answer places it, so the chat shows one card for the call. Streamed at the place after the slot, they made a
 * card of their own, left "streaming" while the turn ran and "not finished" after it.
 */
import { describe, expect, it } from 'vitest';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { callCard, callCardOutcome, sendInChat } from '../helpers/chat-page.js';
import { useMockLlmServer } from '../helpers/mock-llm.js';
import { writeConfig } from '../helpers/project.js';
import { startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

// Started before the UI, which is pointed at it, and closed after it.
const model = useMockLlmServer({
  script: {
    scenarios: [
      {
        match: '^add',
        turns: [
          { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 2, b: 3 } }] },
          { text: 'Added them.' },
        ],
      },
    ],
  },
});
const running = useAroundTests(async () => {
  const config = await writeConfig({
    model: 'ollama:qwen2.5',
    mcpServers: { calculator: trustedCalculator },
    permissions: { allow: ['calculator__add_numbers'] },
  });
  return startUiInChromium(['--config', config], {
    ui: { env: { OLLAMA_HOST: `http://127.0.0.1:${model.port}/quirks/empty-slot` } },
  });
});

describe('a streamed answer whose calls follow an empty call slot', () => {
  it('shows one card for the call, which ends', async () => {
    const live = await sendInChat(running().page, 'add 2 and 3', 'Added them.', WAIT);
    expect(await callCardOutcome(callCard(live, 'calculator__add_numbers [1]'))).toBe('ok');
    expect(await live.getByRole('article', { name: /^Tool call calculator__add_numbers/ }).count()).toBe(1);
  }, 90_000);
});
