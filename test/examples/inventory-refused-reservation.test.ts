/**
 * The inventory example's script reports what came back from a reservation, the host's refusal included, as the
 * command line prints it: the refusal is a sentence with its own full stop, and the script's text adds none after it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

describe('the inventory script, when the host refuses the reservation', () => {
  it('prints the refusal as it was said, ending with one full stop', async () => {
    const data = await temporaryDirectory();
    const config = await writeConfig({
      mcpServers: {
        inventory: {
          command: process.execPath,
          args: [join(repoRoot, 'dist', 'bundle', 'examples', 'servers', 'inventory.js')],
          env: { INVENTORY_DB: join(data, 'inventory.db') },
        },
      },
      permissions: { ask: ['inventory__reserve'] },
    });
    const script = join(repoRoot, 'examples', 'scripts', 'inventory.json');
    // No terminal to ask on: the host refuses the call that needs approval, and the script reports it.
    const result = await runCli(['run', '--config', config, '-m', `scripted:${script}`, 'Reserve 2 WIDGET-1'], {
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('needs approval and no one can approve it here');
    expect(result.stdout.trimEnd()).toMatch(/[^.]\.$/);
  }, 150_000);
});
