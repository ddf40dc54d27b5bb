/** `mcp-host resources list|read`: the resources servers offer, and reading one by URI (no model needed). */

import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { Command } from 'commander';
import type { ServerResources } from '../../client-features/server-resources.js';
import { blobAsText, describeServerResources } from '../../client-features/server-resources.js';
import { base64DecodedSize, formatByteSize } from '../../content/describe-content.js';
import type { Host } from '../../host/create-host.js';
import { closeNames } from '../../text/close-names.js';
import { linearPattern } from '../../text/linear-regexp.js';
import { CommandGroup } from '../command-group.js';
import { addCommonOptions, addServerFilterOption, type CommonOptions } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { listingExitCode } from '../listing-exit-code.js';
import { noneOfferedNote } from '../none-offered-note.js';
import { openHost } from '../open-host.js';
import { writeError, writeJson, writeLine, writeOut } from '../output.js';
import { stoppedForUnapprovedConfig } from '../unapproved-config-stop.js';

/**
 * Whether `uri` could come from `template` (RFC 6570 variables as wildcards). The template is the server's: with
 * many variables a backtracking engine would take exponential time on a near miss, so RE2 (linear time) matches.
 */
export function matchesTemplate(uri: string, template: string): boolean {
  const pattern = template
    .split(/\{[^}]*\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+');
  return linearPattern(`^${pattern}$`).test(uri);
}

/**
 * The server to read `uri` from: the one named, else the one listing it (or a template for it). A URI none lists
 * is a usage error naming it, as an unknown tool is; `--server` still asks one server for a URI it does not list.
 */
async function serverFor(host: Host, uri: string, named: string | undefined): Promise<string> {
  if (named !== undefined) return named;
  const listings: ServerResources[] = await host.resources.list();
  const listing =
    listings.find((candidate) => candidate.resources.some((resource) => resource.uri === uri)) ??
    listings.find((candidate) => candidate.templates.some((template) => matchesTemplate(uri, template.uriTemplate)));
  if (listing) return listing.server;
  throw new CliError(unknownResourceMessage(uri, listings), EXIT_USAGE);
}

function unknownResourceMessage(uri: string, listings: readonly ServerResources[]): string {
  const offering = listings.filter((entry) => entry.resources.length + entry.templates.length > 0);
  if (offering.length === 0) return `unknown resource "${uri}": no connected server offers resources`;
  const close = closeNames(
    uri,
    offering.flatMap((entry) => entry.resources.map((resource) => resource.uri)),
    3,
  );
  const hint = close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '; `mcp-host resources list` lists them';
  const servers = offering.map((entry) => entry.server).join(', ');
  return `unknown resource "${uri}": no server lists it or a template for it${hint}; to ask one anyway, name it with --server (${servers})`;
}

function printContents(result: ReadResourceResult): void {
  for (const content of result.contents) {
    if ('text' in content && typeof content.text === 'string') {
      writeOut(content.text.endsWith('\n') ? content.text : `${content.text}\n`);
      continue;
    }
    const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
    const text = blobAsText(blob, content.mimeType);
    if (text !== undefined) {
      writeOut(text.endsWith('\n') ? text : `${text}\n`);
      continue;
    }
    writeLine(
      `[${content.uri}: ${content.mimeType ?? 'binary data'}, ${formatByteSize(base64DecodedSize(blob))}; use --json for the base64 data]`,
    );
  }
}

export function createResourcesCommand(): Command {
  const resources = new CommandGroup('resources').description('list the resources servers offer, or read one');

  const list = new Command('list')
    .description('list every resource and URI template, by server')
    .option('--json', 'print JSON');
  addServerFilterOption(addCommonOptions(list));
  list.action(async (options: CommonOptions & { json?: boolean }) => {
    const host = await openHost(options);
    try {
      const listings = await host.resources.list();
      if (options.json) writeJson(listings);
      else {
        for (const listing of listings)
          for (const line of describeServerResources(listing)) writeLine(`${listing.server}  ${line}`);
        const offered = listings.some((listing) => listing.resources.length + listing.templates.length > 0);
        const note = offered ? undefined : noneOfferedNote('resources', host.servers());
        if (note !== undefined) writeError(`mcp-host: ${note}`);
      }
      process.exitCode = listingExitCode(host, EXIT_OK);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`listing resources failed: ${messageOf(error)}`, EXIT_RUN_FAILED);
    } finally {
      await host.close();
    }
  });

  const read = new Command('read')
    .description('read one resource by URI and print its contents')
    .argument('<uri>', 'the resource URI, as `resources list` shows it (templates filled in)')
    .option('-s, --server <name>', 'the server to read it from (default: the one that lists it)')
    .option('--json', 'print the result as JSON (binary contents as base64)');
  addCommonOptions(read);
  read.action(async (uri: string, options: Omit<CommonOptions, 'server'> & { json?: boolean; server?: string }) => {
    // The server named is the only one needed.
    const host = await openHost({ ...options, server: options.server === undefined ? undefined : [options.server] });
    try {
      if (stoppedForUnapprovedConfig(host)) return;
      const server = await serverFor(host, uri, options.server);
      const result = await host.resources.read(server, uri);
      if (options.json) writeJson({ server, ...result });
      else printContents(result);
      process.exitCode = EXIT_OK;
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`reading ${uri} failed: ${messageOf(error)}`, EXIT_RUN_FAILED);
    } finally {
      await host.close();
    }
  });

  return resources.listByDefault(list).addCommand(read);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
