/**
 * chat's `/model` to a provider whose key is not set says so as `run` and `chat` do at start, naming the variable,
 * and keeps the model in use.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, repoRoot, writeConfig } from '../helpers/project.js';

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
});
