/** `mcp-host mock-llm --script PATH [--port N]`: the mock provider server, for offline tests. */
import { Command } from 'commander';
import { loadScript } from '../../testing/load-script.js';
import { startMockLlmServer } from '../../testing/mock-llm/mock-llm-server.js';
import { openAiChatQuirks } from '../../testing/mock-llm/wires/openai-chat-read-request.js';
import { scriptFileProblem } from '../../testing/script-file.js';
import { announceAddress } from '../announce-address.js';
import { parsePort } from '../common-options.js';
import { CliError, EXIT_SIGINT, EXIT_SIGTERM, EXIT_USAGE } from '../exit-codes.js';
import { untilSignal } from '../until-signal.js';

export function createMockLlmCommand(): Command {
  return new Command('mock-llm')
    .description("serve a scripted model over the providers' wire formats on 127.0.0.1, recording every request")
    .requiredOption('--script <path>', 'the script to answer with (see examples/scripts/)')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .addHelpText('after', routesHelp())
    .action(async (options: { script: string; port?: number }) => {
      let script: Awaited<ReturnType<typeof loadScript>>;
      const problem = scriptFileProblem(options.script);
      if (problem !== undefined)
        throw new CliError(`--script ${options.script}: ${problem} (examples/scripts/ has some)`, EXIT_USAGE);
      try {
        script = await loadScript(options.script);
      } catch (error) {
        throw new CliError(
          `cannot load --script: ${error instanceof Error ? error.message : String(error)}`,
          EXIT_USAGE,
        );
      }
      const server = await startMockLlmServer({ script, port: options.port ?? 0 });
      // Listening before the address is announced: whoever reads it may stop the command at once.
      const stopped = untilSignal(['SIGINT', 'SIGTERM']);
      announceAddress(server.url, 'the mock LLM', `recorded requests: GET ${server.url}/_mock/requests`);
      const stoppedBy = await stopped;
      await server.close();
      // Ended by a signal, as every command that runs until stopped exits: 130 for Ctrl-C, 143 for SIGTERM.
      process.exitCode = stoppedBy === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM;
    });
}

/** Where each provider's SDK must be pointed (the prefix it adds itself differs), and the quirk switches. */
function routesHelp(): string {
  return [
    '',
    'Routes by provider, and the --base-url to give `mcp-host run` (URL: the address printed on start):',
    '  anthropic          POST /v1/messages                                 --base-url URL',
    '  openai             POST /v1/chat/completions                         --base-url URL/v1',
    '  openai-responses   POST /v1/responses                                --base-url URL/v1',
    '  gemini             POST /v1beta/models/MODEL:generateContent         --base-url URL',
    '                     POST /v1beta/models/MODEL:streamGenerateContent?alt=sse',
    '  ollama             POST /v1/chat/completions (the OpenAI Chat wire)  --base-url URL/v1',
    '  openai-compatible  POST /v1/chat/completions (the OpenAI Chat wire)  --base-url URL/v1',
    'The Anthropic and Gemini SDKs add /v1 and /v1beta themselves; the OpenAI SDK wants /v1 in the base URL.',
    '',
    'Local-server quirks of the OpenAI Chat wire, switched on by a path prefix in the base URL:',
    '  --base-url URL/quirks/QUIRK[,QUIRK…]/v1   e.g. URL/quirks/no-ids,no-done/v1',
    `  quirks: ${openAiChatQuirks.join(', ')}`,
    '',
    'Recorded requests: GET URL/_mock/requests (DELETE to forget them).',
    'Any API key is accepted; the provider SDKs still need one set (e.g. ANTHROPIC_API_KEY=test).',
  ].join('\n');
}
