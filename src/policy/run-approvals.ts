/**
 * "Allow this tool for this run" and "allow this server for this run": answers that last until the host closes,
 * kept in memory only (never in the trust store). They stand where an "always allow" would: a deny rule still
 * denies, an ask rule still asks.
 *
 * Questions are asked one at a time through `exclusive`, and each is checked again once its turn comes: five
 * parallel calls of one tool ask once, and the four waiting behind the answer "this tool for this run" run
 * without asking.
 */

type RunApprovalScope = 'tool' | 'server';

export class RunApprovals {
  private readonly tools = new Set<string>();
  private readonly servers = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  allowTool(server: string, tool: string): void {
    this.tools.add(JSON.stringify([server, tool]));
  }

  allowServer(server: string): void {
    this.servers.add(server);
  }

  /** Which run approval covers this tool, if any (a server-wide one first). */
  covering(server: string, tool: string): RunApprovalScope | undefined {
    if (this.servers.has(server)) return 'server';
    if (this.tools.has(JSON.stringify([server, tool]))) return 'tool';
    return undefined;
  }

  /** Runs `task` after every task queued before it has finished, whatever their outcome. */
  exclusive<Result>(task: () => Promise<Result>): Promise<Result> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
