import type { Page } from 'playwright-core';

/** Follows the web UI's navigation link to the page `label` and waits until its heading shows. */
export async function goToUiPage(page: Page, label: string, wait = { timeout: 15_000 }): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label }).click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor(wait);
}
