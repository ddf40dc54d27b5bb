/**
 * Every test file gets its own home and state folder, so no test reads or writes the real trust
 * store and audit log of whoever runs the suite, and test files cannot see each other's pins.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { killLeftRunning } from '../helpers/left-running.js';

const home = mkdtempSync(join(tmpdir(), 'mcp-host-home-'));
process.env.HOME = home;
process.env.MCP_HOST_STATE_DIR = join(home, 'state');
delete process.env.XDG_STATE_HOME;
delete process.env.MCP_HOST_AUDIT_FILE;
// The user's instructions and skills live in the isolated home too.
delete process.env.XDG_CONFIG_HOME;
delete process.env.MCP_HOST_CONFIG_DIR;

// A process a helper started for a set-up that timed out is still running: it must not outlive its file.
afterAll(() => killLeftRunning());
