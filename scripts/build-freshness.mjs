/**
 * Whether a build's output is still what its inputs would produce, so `npm ci` (which builds) followed by `npm test`
 * (which builds again) does not bundle twice. Decided by content: a digest of every input file (its path and bytes)
 * and of the Node version, and the digest of the output as it was written, are kept in a stamp beside the output. A
 * missing or unreadable stamp, a changed, added or removed input or an output changed since means a rebuild; so does
 * an input written after the stamp even with the same bytes, since the tests refuse an output older than its inputs.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every file under `paths` (files or folders, relative to `root`), sorted, with forward slashes; `missing` when absent. */
function filesUnder(root, paths) {
  const found = new Map();
  for (const path of paths) {
    const full = join(root, path);
    if (!existsSync(full)) {
      // An input that does not exist is recorded as such: its appearing later changes the digest.
      found.set(path, true);
      continue;
    }
    if (!lstatSync(full).isDirectory()) {
      found.set(relative(root, full).split(sep).join('/'), false);
      continue;
    }
    for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
      if (entry.isDirectory()) continue;
      found.set(relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'), false);
    }
  }
  return [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, missing]) => ({ path, missing }));
}

/** One digest of the files under `paths`: each one's path and content (a link's target; a missing path's absence). */
export function digestOf(root, paths) {
  return digestAndNewestChange(root, paths).digest;
}

/** The digest of `digestOf`, and the latest modification time of the files, in ms (0 when there are none). */
function digestAndNewestChange(root, paths) {
  const hash = createHash('sha256');
  let newest = 0;
  for (const { path, missing } of filesUnder(root, paths)) {
    hash.update(`${path}\0`);
    if (missing) {
      hash.update('missing\0');
      continue;
    }
    const full = join(root, path);
    const stats = lstatSync(full);
    newest = Math.max(newest, stats.mtimeMs);
    const content = stats.isSymbolicLink() ? `link:${readlinkSync(full)}` : readFileSync(full);
    hash.update(`${createHash('sha256').update(content).digest('hex')}\0`);
  }
  return { digest: hash.digest('hex'), newest };
}

/** The digest of what the output is built from (the inputs, and the Node version that builds it), and the inputs' newest change. */
function inputDigest(target) {
  const { digest, newest } = digestAndNewestChange(target.root, target.inputs);
  return { digest: createHash('sha256').update(`${process.version}\0${digest}`).digest('hex'), newest };
}

function readStamp(stampPath) {
  try {
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
    const valid = typeof stamp.inputs === 'string' && typeof stamp.output === 'string';
    return valid ? { ...stamp, writtenAt: lstatSync(stampPath).mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `target` must be built again: `reason` says why, undefined when its output is up to date. `target`: `root`,
 * `inputs` and `output` (paths relative to `root`) and `stamp`, the file the decision is kept in. `inputs` is the
 * digest to record after the build (taken before it, so an input edited during the build is built again next time).
 */
export function checkBuild(target) {
  const { digest: inputs, newest } = inputDigest(target);
  return { reason: staleReason(target, inputs, newest), inputs };
}

function staleReason(target, inputs, newestInput) {
  const stamp = readStamp(join(target.root, target.stamp));
  if (stamp === undefined) return 'no record of an earlier build';
  if (!existsSync(join(target.root, target.output))) return 'no output';
  if (stamp.inputs !== inputs) return 'its inputs changed';
  if (newestInput > stamp.writtenAt) return 'an input was written after it was built';
  if (stamp.output !== digestOf(target.root, [target.output])) return 'its output changed since it was built';
  return undefined;
}

/** After a build of `target` from inputs of digest `inputs` (see checkBuild): records them and the output as it is. */
export function recordBuild(target, inputs) {
  const stamp = { inputs, output: digestOf(target.root, [target.output]) };
  writeFileSync(join(target.root, target.stamp), `${JSON.stringify(stamp, null, 2)}\n`);
}
