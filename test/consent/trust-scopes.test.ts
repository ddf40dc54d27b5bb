/**
 * Approvals kept per config file, through the host: two projects whose configs both name a server `fs`, run on
 * different folders, share one state folder. Switching between them must not say "server changed" (a prompt
 * people learn to click through is no defence against a real rug pull), while a changed command line within one
 * project still does. Real stdio servers.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostOptions } from '../../src/host/create-host.js';
import { hostConfig } from '../helpers/configs.js';
import { writeConfig } from '../helpers/project.js';
import {
  closeHosts,
  freshStateDir,
  openHost,
  RecordingApprover,
  type ToolSpec,
  toolSetServer,
  toolSetServerEntry,
} from './consent-helpers.js';

const tools: ToolSpec[] = [
  { name: 'read_file', description: 'Reads a file.', annotations: { readOnlyHint: true, openWorldHint: false } },
];

afterEach(closeHosts);

async function openAndClose(options: HostOptions): Promise<string[]> {
  const host = await openHost(options);
  const names = host.catalog().entries.map((entry) => entry.name);
  await host.close();
  return names;
}

const fsConfig = (root: string) => writeConfig({ mcpServers: { fs: toolSetServerEntry(tools, { args: [root] }) } });

describe('trust scoped by config file', () => {
  it('keeps two projects’ `fs` approved when their configs run it on different folders', async () => {
    const stateDir = freshStateDir();
    const projectA = await fsConfig('/home/someone/project-a');
    const projectB = await fsConfig('/home/someone/project-b');
    // Fails the run on any question: switching projects must not need one.
    const approver = new RecordingApprover();
    const diagnostics: string[] = [];
    const options = (config: string): HostOptions => ({
      config,
      stateDir,
      approver,
      onDiagnostic: (line) => diagnostics.push(line),
    });

    for (const config of [projectA, projectB, projectA, projectB]) {
      expect(await openAndClose(options(config))).toEqual(['fs__read_file']);
    }
    expect(approver.servers).toEqual([]);
    expect(approver.definitions).toEqual([]);
    expect(diagnostics.filter((line) => line.includes('different command line'))).toEqual([]);

    // A config given in code is a scope of its own: new there too, not changed.
    const inCode = hostConfig([toolSetServer('fs', tools, { extraArgs: ['/home/someone/project-c'] })]);
    expect(await openAndClose({ config: inCode, stateDir, approver })).toEqual(['fs__read_file']);
    expect(approver.servers).toEqual([]);
  });

  it('still withholds a project’s tools when its own config starts running something else', async () => {
    const stateDir = freshStateDir();
    const projectA = await fsConfig('/home/someone/project-a');
    expect(await openAndClose({ config: projectA, stateDir })).toEqual(['fs__read_file']);

    // The same file, edited to reach the whole disk: the person is asked and says no.
    await writeFile(projectA, JSON.stringify({ mcpServers: { fs: toolSetServerEntry(tools, { args: ['/'] }) } }));
    const refusing = new RecordingApprover({ server: () => 'reject' });
    expect(await openAndClose({ config: projectA, stateDir, approver: refusing })).toEqual([]);
    expect(refusing.servers).toEqual([expect.objectContaining({ serverName: 'fs', change: 'server-changed' })]);
  });
});
