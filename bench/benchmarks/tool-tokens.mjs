/**
 * Benchmark 9 — the tools array's size. For the README example's servers, server-everything and a 100-tool catalog,
 * the tokens of the `tools` each client would send each provider, counted with the project's estimator (o200k_base).
 * Goal: mcp-host never more than the leanest peer for the same servers.
 */
import { join } from 'node:path';
import { projectDirectory } from '../lib/paths.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { createStateFolder } from '../lib/state-folder.mjs';

/** A single exact ratio (the counts are exact: no spread). */
const times = (value) => `${value.toFixed(3)}×`;

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'];
const PEERS = { 'ai-sdk': '@ai-sdk/mcp', 'mcp-use': 'mcp-use' };

/** The servers of each set, started by every client alike on the project's own Node (`serverNode`). */
function serverSets(serverNode, inventoryDatabase) {
  return [
    {
      key: 'readme',
      label: 'README example (calculator, inventory)',
      servers: [
        {
          name: 'calculator',
          command: serverNode,
          args: [join(projectDirectory, 'dist/bundle/examples/servers/calculator.js')],
          trust: 'trusted',
        },
        {
          name: 'inventory',
          command: serverNode,
          args: [join(projectDirectory, 'dist/bundle/examples/servers/inventory.js')],
          env: { INVENTORY_DB: inventoryDatabase },
          trust: 'trusted',
        },
      ],
    },
    {
      key: 'everything',
      label: 'server-everything',
      servers: [
        {
          name: 'everything',
          command: serverNode,
          args: [join(projectDirectory, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
          trust: 'trusted',
        },
      ],
    },
    {
      key: 'catalog',
      label: '100-tool catalog (real servers’ lists)',
      servers: [
        {
          name: 'catalog',
          command: serverNode,
          args: [join(projectDirectory, 'bench/servers/catalog-tools.mjs'), '100'],
          trust: 'trusted',
        },
      ],
    },
  ];
}

export async function runToolTokens({ node, serverNode, log }) {
  const folder = createStateFolder();
  let data;
  try {
    const sets = serverSets(serverNode, join(folder.path, 'inventory.db'));
    data = await runWorker(node, 'tool-tokens-worker.mjs', { sets }, { timeoutMs: 300_000 });
    data.sets = sets.map(({ key, label }) => ({ key, label }));
  } finally {
    folder.remove();
  }
  const rows = [];
  const targets = [];
  for (const { key, label } of data.sets) {
    const measured = data.results[key];
    const ratios = [];
    for (const provider of PROVIDERS) {
      const host = measured['mcp-host'][provider];
      const unprefixed = measured['mcp-host-unprefixed'][provider];
      const peers = Object.keys(PEERS).map((peer) => measured[peer][provider]);
      const leanest = Math.min(...peers);
      ratios.push(host / leanest);
      rows.push([
        label,
        provider,
        `${measured.tools}`,
        host.toLocaleString('en'),
        ...peers.map((tokens) => tokens.toLocaleString('en')),
        times(host / leanest),
        `${unprefixed.toLocaleString('en')} (${times(unprefixed / leanest)})`,
      ]);
    }
    const worst = Math.max(...ratios);
    log(`  tokens ${key}: mcp-host at most ${worst.toFixed(3)}× the leanest peer`);
    targets.push({
      description: `tools array, ${label}: mcp-host no more tokens than the leanest peer, every provider (largest ratio)`,
      measured: worst,
      limit: 1,
      met: worst <= 1,
    });
  }
  return {
    id: 'tool-tokens',
    title: '9. Tools array tokens',
    what: 'The `tools` array each client would send each provider for the same servers, in o200k_base tokens (the project’s estimator; no provider counts offline). mcp-host: `host.toolDefinitions()` (every definition, names prefixed `server__`; tool discovery is off the comparison) through its own translation for each provider, exactly what its requests carry. @ai-sdk/mcp: `tools()`, each description and JSON Schema in the shape the AI SDK’s provider packages send. mcp-use: its connector’s listed definitions in the same shapes (its agent hands them to LangChain, which is not installed). Only the tools all three were offered are counted (server-everything offers mcp-host its sampling and elicitation tools too, for the capabilities it declares). The last column is mcp-host’s translation with the names as the server listed them, without the `server__` prefix that keeps names apart across servers: what the prefix costs. One run: the counts are exact, not timings.',
    columns: [
      'servers',
      'provider',
      'tools (all three offered)',
      'mcp-host',
      ...Object.values(PEERS),
      'mcp-host vs leanest peer',
      'mcp-host with the listed names (vs leanest)',
    ],
    rows,
    targets,
    data,
  };
}
