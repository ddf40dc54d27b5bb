/**
 * What the browser tests of the web UI's chat page do on it: send a message, reload, open a tool card's translations
 * and view, answer a question's dialog over the page from the keyboard.
 */
import type { FrameLocator, Locator, Page } from 'playwright-core';

const WAIT = { timeout: 15_000 };

/** Goes to the Chat page and sends `text`, waiting for nothing the turn shows. */
export async function startChatTurn(page: Page, text: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Goes to the Chat page, sends `text` and waits until the live turn shows `reply`; returns the live turn. */
export async function sendInChat(page: Page, text: string, reply: string, wait = WAIT): Promise<Locator> {
  await startChatTurn(page, text);
  const live = page.locator('.turn');
  await live.getByText(reply).waitFor(wait);
  return live;
}

/** Reloads the page and returns the list of the earlier messages, as the transcript shows them. */
export async function reloadToEarlierMessages(page: Page): Promise<Locator> {
  await page.reload();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
  return page.getByRole('list', { name: 'Earlier messages' });
}

/** The card of the call labelled `Tool call <label>` in `scope` (its tool's name and number: `calculator__add [1]`). */
export function callCard(scope: Locator, label: string): Locator {
  return scope.getByRole('article', { name: `Tool call ${label}` });
}

/** The outcome a call card's header shows (ok, error, …). */
export async function callCardOutcome(card: Locator): Promise<string | null> {
  return card.locator('header .badge').textContent();
}

/** The text of a tool card's translation headed `heading`, once its translations are open. */
export async function callCardTranslation(card: Locator, heading: string): Promise<string> {
  const button = card.getByRole('button', { name: /Show the three translations/ });
  if ((await button.count()) > 0) await button.click();
  const section = card.locator('section').filter({ has: card.page().getByRole('heading', { name: heading }) });
  return (await section.textContent()) ?? '';
}

/** The MCP Apps view of the call to `tool` on `card`: the view's own document, inside the sandbox proxy's frame. */
export function callCardView(card: Locator, tool: string): FrameLocator {
  return card.frameLocator(`iframe[title="View of ${tool}"]`).frameLocator('iframe[title="MCP App view"]');
}

/** Waits until the buttons of a question's `dialog` take input: they ignore it for a moment after it shows. */
export async function waitForAnswersToTakeInput(dialog: Locator): Promise<void> {
  await dialog
    .locator('button[aria-disabled]')
    .first()
    .waitFor({ state: 'detached', ...WAIT });
}

/**
 * Presses Tab until the focus is on the element whose text is `text`, 20 times at most, from where the focus is;
 * returns the text of the element the focus ends on.
 */
export async function tabTo(page: Page, text: string): Promise<string | undefined> {
  const focused = () => page.evaluate<string | undefined>('document.activeElement?.textContent');
  for (let tabs = 0; tabs < 20 && (await focused()) !== text; tabs++) await page.keyboard.press('Tab');
  return focused();
}
