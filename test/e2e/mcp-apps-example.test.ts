/**
 * The MCP Apps example config (examples/mcp-apps.json) run from the terminal as the README shows it: the published
 * system monitor server answers through the scripted model, and the terminal says where the tool's view is shown.
 * The view itself is driven in Chromium by test/web/app-views-browser.test.ts, with the same script.
 */
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';

describe('examples/mcp-apps.json', () => {
  it("answers from the system monitor's tool, and names the web UI for its view", async () => {
    const result = await runCliInProcess(['run', '--config', 'examples/mcp-apps.json', 'Show the system monitor']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("The system monitor's view above shows this machine live.");
    // The server's own reading of this machine, not the script's.
    expect(result.stdout).toContain(`"hostname":${JSON.stringify(hostname())}`);
    expect(result.stderr).toContain(
      'monitor__get-system-info has an interactive view (ui://system-monitor/mcp-app.html); open it in the web UI',
    );
  });
});
