/** `mcp-host servers`: each server's state, protocol version, tool count, last error. */
import { Command } from 'commander';
import { addCommonOptions, addServerFilterOption, type CommonOptions } from '../common-options.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { withInterruptibleHost } from '../interrupt.js';
import { listingExitCode } from '../listing-exit-code.js';
import { openHost } from '../open-host.js';
import { writeJson, writeLine } from '../output.js';
import { serverInfoText } from '../server-info-text.js';

export function createServersCommand(): Command {
  const command = new Command('servers')
    .description("connect to every server and show each one's state")
    .option('--json', 'print JSON');
  addServerFilterOption(addCommonOptions(command));
  return command.action(async (options: CommonOptions & { json?: boolean }) => {
    await withInterruptibleHost(
      (signal) => openHost(options, { signal }),
      async (host) => {
        const servers = host.servers();
        if (options.json) {
          writeJson(servers);
        } else {
          for (const server of servers) {
            const details = [
              server.transport,
              server.protocolVersion ? `protocol ${server.protocolVersion}` : undefined,
              server.serverInfo ? serverInfoText(server.serverInfo) : undefined,
              server.toolCount !== undefined ? `${server.toolCount} tool(s)` : undefined,
              server.restarts ? `restarted ${server.restarts} time(s)` : undefined,
            ].filter(Boolean);
            // A disabled server is never started: "idle" would read as one that may start yet.
            writeLine(`${server.name}: ${server.disabled ? 'disabled' : server.state} (${details.join(', ')})`);
            if (server.lastError) writeLine(`  last error: ${server.lastError.replaceAll('\n', '\n  ')}`);
            for (const item of server.unsupportedTools ?? []) writeLine(`  withheld ${item.name}: ${item.reason}`);
          }
        }
        process.exitCode = listingExitCode(
          host,
          servers.some((server) => server.state === 'failed') ? EXIT_RUN_FAILED : EXIT_OK,
        );
      },
    );
  });
}
