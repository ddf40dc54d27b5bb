/** `mcp-host mock-llm --script PATH [--port N]`: the mock provider server, for offline tests. */
import { Command } from 'commander';
import { loadScript } from '../../testing/load-script.js';
import { startMockLlmServer } from '../../testing/mock-llm/mock-llm-server.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';
import { parsePositiveInteger } from '../open-host.js';
import { writeError, writeLine } from '../output.js';

export function createMockLlmCommand(): Command {
  return new Command('mock-llm')
    .description("serve a scripted model over the providers' wire formats on 127.0.0.1, recording every request")
    .requiredOption('--script <path>', 'the script to answer with (see examples/scripts/)')
    .option('--port <n>', 'port to listen on (default: any free port)', (value) =>
      value === '0' ? 0 : parsePositiveInteger(value),
    )
    .action(async (options: { script: string; port?: number }) => {
      let script: Awaited<ReturnType<typeof loadScript>>;
      try {
        script = await loadScript(options.script);
      } catch (error) {
        throw new CliError(
          `cannot load --script: ${error instanceof Error ? error.message : String(error)}`,
          EXIT_USAGE,
        );
      }
      const server = await startMockLlmServer({ script, port: options.port ?? 0 });
      writeLine(server.url);
      writeError(
        `mcp-host: mock LLM listening on ${server.url} (recorded requests: GET ${server.url}/_mock/requests); Ctrl-C to stop`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
    });
}
