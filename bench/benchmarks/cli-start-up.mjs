/**
 * Benchmark 6 — CLI start-up. Wall time of whole processes, from spawn to exit: `mcp-host --help` against bare
 * `node -e 0`, and `mcp-host tools list` with one stdio server against a minimal raw SDK client listing the same
 * server (bench/clients/raw-sdk-tools-list.mjs). Each repetition runs every command once, in turn, so a busy
 * moment slows both sides of a ratio alike; ratios are taken per repetition.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { figure, ratio, spread } from '../lib/format.mjs';
import { ownSessionServerCommand } from '../lib/host-config.mjs';
import { benchDirectory, projectDirectory } from '../lib/paths.mjs';
import { createStateFolder } from '../lib/state-folder.mjs';
import { addToSeries, pairedRatios, summarise } from '../lib/statistics.mjs';

const CLI = join(projectDirectory, 'dist', 'bundle', 'cli', 'main.js');
const RAW_CLIENT = join(benchDirectory, 'clients', 'raw-sdk-tools-list.mjs');
const HELP_LIMIT = 2;
const TOOLS_LIST_LIMIT = 1.15;

/** Milliseconds from spawn to exit; rejects unless the process exits 0. */
function timeProcess(node, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, args, { cwd: projectDirectory, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output = (output + chunk).slice(-4_000);
    });
    child.stderr.on('data', (chunk) => {
      output = (output + chunk).slice(-4_000);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve(ms);
      else reject(new Error(`${args.join(' ')} exited with code ${code}:\n${output}`));
    });
  });
}

export async function runCliStartUp({ node, repetitions, log }) {
  const state = createStateFolder();
  // Both clients start the same server the same way: in a session of its own (see lib/host-config.mjs).
  const server = ownSessionServerCommand('bench');
  const config = join(state.path, 'mcp-host.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { bench: { command: server.command, args: server.args } } }));
  const env = { ...process.env, MCP_HOST_STATE_DIR: join(state.path, 'state') };
  const commands = {
    node: ['-e', '0'],
    help: [CLI, '--help'],
    raw: [RAW_CLIENT, server.command, ...server.args],
    toolsList: [CLI, 'tools', 'list', '--config', config],
  };
  const runs = {};
  try {
    // One warm-up round fills the file system cache for every command.
    for (const args of Object.values(commands)) await timeProcess(node, args, env);
    for (let repetition = 1; repetition <= repetitions; repetition += 1) {
      for (const [key, args] of Object.entries(commands)) {
        const ms = await timeProcess(node, args, env);
        addToSeries(runs, key, ms);
        log(`  cli start-up ${repetition}/${repetitions} ${key}: ${figure(ms)} ms`);
      }
    }
  } finally {
    state.remove();
  }
  const help = summarise(pairedRatios(runs.help, runs.node));
  const toolsList = summarise(pairedRatios(runs.toolsList, runs.raw));
  const row = (label, key, versus) => [label, spread(summarise(runs[key])), versus];
  return {
    id: 'cli-start-up',
    title: '6. CLI start-up',
    what: `Wall time of whole processes, from spawn to exit, ${repetitions} repetitions after one warm-up round, every command once per repetition in turn; ratios are taken per repetition. \`mcp-host --help\` against bare \`node -e 0\`; \`mcp-host tools list\` with one stdio bench server against a minimal raw v2 SDK client (\`bench/clients/raw-sdk-tools-list.mjs\`: connect, \`listTools\`, print, close) starting the same server the same way.`,
    columns: ['command', 'ms', 'vs baseline'],
    rows: [
      row('node -e 0', 'node', 'baseline'),
      row('mcp-host --help', 'help', ratio(help)),
      row('raw v2 SDK client listing one server', 'raw', 'baseline'),
      row('mcp-host tools list (one server)', 'toolsList', ratio(toolsList)),
    ],
    summary: [
      'Each command loads only what it uses: `--help` loads the command line and commander, no host; `tools list` loads no model provider SDK, no tokenizer and no gateway.',
    ],
    targets: [
      {
        description: `mcp-host --help within ${HELP_LIMIT}× of bare node`,
        measured: help.median,
        limit: HELP_LIMIT,
        met: help.median <= HELP_LIMIT,
      },
      {
        description: `mcp-host tools list (one server) within ${TOOLS_LIST_LIMIT}× of a raw SDK client`,
        measured: toolsList.median,
        limit: TOOLS_LIST_LIMIT,
        met: toolsList.median <= TOOLS_LIST_LIMIT,
      },
    ],
    data: runs,
  };
}
