/**
 * chat's `/model` to a provider whose key is not set, or to a scripted model whose script is not there, says so as
 * `run` and `chat` do at start, naming the variable or the path, and keeps the model in use; `/save` to a folder
 * that is not there names the folder.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, repoRoot, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

describe('chat /model to a provider without its key', () => {
  it('names the variable to set and keeps the model in use', async () => {
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    const config = await writeConfig({
      model: `scripted:${script}`,
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const result = await runCliInProcess(['chat', '--config', config], {
      input: '/model openai:gpt-5\n/model\n',
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const said = result.stdout + result.stderr;
    expect(said).toContain(
      'mcp-host: the model openai:gpt-5 needs an API key: set OPENAI_API_KEY in the environment, or choose another model with /model',
    );
    expect(said).not.toContain('apiKey');
    expect(result.stdout).toContain('model: scripted:five-plus-seven.json');
  }, 60_000);

  it('names the script file looked at for a scripted model, and the missing folder /save could not write in', async () => {
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    const folder = await temporaryDirectory('mcp-host-chat-save-');
    const config = await writeConfig({
      model: `scripted:${script}`,
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const result = await runCli(['chat', '--config', config], {
      cwd: folder,
      input: '/model scripted:missing.json\nWhat is 5 plus 7?\n/save no-such-folder/chat.md\n',
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    // The chat's command errors go where its lines go.
    const said = result.stdout + result.stderr;
    expect(said).toContain(
      `mcp-host: the model scripted:missing.json needs its script, and there is no file at ${join(folder, 'missing.json')}, or choose another model with /model`,
    );
    expect(said).toContain(
      `mcp-host: could not save to ${join(folder, 'no-such-folder', 'chat.md')}: the folder ${join(folder, 'no-such-folder')} does not exist`,
    );
  }, 60_000);
});
