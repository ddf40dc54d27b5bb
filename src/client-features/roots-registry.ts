/**
 * The roots the host offers servers — the folders they may work in — answered on `roots/list`. When the roots
 * change, every connected server is sent `notifications/roots/list_changed` so it asks again.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client, Root } from '@modelcontextprotocol/client';
import { rootUrl } from '../config/root-url.js';

/** Paths (resolved against `baseDirectory`) and `file://` URIs → roots named after their last folder. */
export function resolveRoots(entries: readonly string[], baseDirectory: string): Root[] {
  return entries.map((entry) => {
    const url = rootUrl(entry, baseDirectory);
    if (url?.protocol !== 'file:') throw new Error(`root "${entry}" is not a folder path or a file:// URI`);
    const uri = url.href;
    const name = path.basename(fileURLToPath(uri)) || uri;
    return { uri, name };
  });
}

export class RootsRegistry {
  private current: Root[];
  private readonly clients = new Map<string, Client>();

  /**
   * @param declared whether the host declares the roots capability at all (only when roots were configured):
   *   declaring it makes servers such as server-filesystem replace the folders they were started with.
   */
  constructor(
    roots: readonly Root[],
    readonly declared = true,
  ) {
    this.current = [...roots];
  }

  list(): Root[] {
    return this.current.map((root) => ({ ...root }));
  }

  /** Answers `roots/list` on this server's client (replacing a client of the same server from before a restart). */
  attach(serverName: string, client: Client): void {
    this.clients.set(serverName, client);
    client.setRequestHandler('roots/list', () => ({ roots: this.list() }));
  }

  /**
   * Replaces the roots and tells every server that they changed. Resolves when the notifications are sent; a
   * server that cannot be told (disconnected) is reported through `onFailure` and skipped.
   */
  async set(roots: readonly Root[], onFailure?: (serverName: string, error: unknown) => void): Promise<void> {
    if (!this.declared) {
      throw new Error(
        'roots were not declared to the servers (none were configured): set `roots` in the config, pass --root DIR, or give `roots` when creating the host',
      );
    }
    const unchanged =
      roots.length === this.current.length &&
      roots.every((root, index) => root.uri === this.current[index]?.uri && root.name === this.current[index]?.name);
    this.current = [...roots];
    if (unchanged) return;
    await Promise.all(
      [...this.clients].map(async ([serverName, client]) => {
        try {
          await client.sendRootsListChanged();
        } catch (error) {
          onFailure?.(serverName, error);
        }
      }),
    );
  }
}
