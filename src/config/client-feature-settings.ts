/**
 * The config keys for what the host offers servers beyond tools: `roots` (the folders servers may work in,
 * answered on `roots/list`) and `sampling` (which model answers a server's `sampling/createMessage`). Shapes are
 * zod schemas like the rest of the config; meaning (paths resolved against the config's folder, `file://` URIs
 * only) is applied here, with errors naming the file, the key and what was expected.
 */

import path from 'node:path';
import { z } from 'zod';
import { setOwnProperty } from '../json/own-property.js';
import { ConfigError, describeConfigFile } from './config-error.js';
import { formatKeyPath, quoteKey } from './key-path.js';
import { rootUrl } from './root-url.js';
import type { SamplingSettings } from './types.js';

const modelSpec = z
  .string({ error: 'a model as a string, e.g. "anthropic:claude-haiku-4-5"' })
  .min(1, { error: 'a non-empty model, e.g. "anthropic:claude-haiku-4-5"' });

export const rootsSchema = z.array(
  z.string({ error: 'a folder path or a file:// URI, as a string' }).min(1, { error: 'a non-empty folder path' }),
  { error: 'an array of folder paths or file:// URIs' },
);

export const samplingSchema = z.object(
  {
    model: modelSpec.optional(),
    servers: z
      .record(z.string(), modelSpec, { error: 'an object mapping server names to models ("provider:model")' })
      .optional(),
    hints: z
      .record(z.string(), modelSpec, { error: 'an object mapping model-name hints to models ("provider:model")' })
      .optional(),
    tools: z.boolean({ error: 'true or false' }).optional(),
  },
  { error: 'an object with optional `model`, `servers`, `hints` and `tools`' },
);

const SAMPLING_KEYS: ReadonlySet<string> = new Set(Object.keys(samplingSchema.shape));

const SCRIPTED_PREFIX = 'scripted:';

interface BuildContext {
  file: string | undefined;
  baseDirectory: string;
  serverNames: ReadonlySet<string>;
  warnings: string[];
}

/** Each root as a `file://` URI: paths resolve against the config's folder; other URI schemes are refused. */
export function buildRoots(roots: readonly string[], context: Pick<BuildContext, 'file' | 'baseDirectory'>): string[] {
  return roots.map((entry, index) => {
    const url = rootUrl(entry, context.baseDirectory);
    if (url?.protocol !== 'file:') {
      throw new ConfigError({
        code: 'config-invalid',
        file: context.file,
        keyPath: formatKeyPath(['roots', index]),
        expected: 'a folder path or a file:// URI (MCP roots are local folders)',
        found: JSON.stringify(entry),
      });
    }
    return url.href;
  });
}

export function buildSamplingSettings(
  sampling: z.infer<typeof samplingSchema>,
  raw: Record<string, unknown>,
  context: BuildContext,
): SamplingSettings {
  for (const key of Object.keys(raw)) {
    if (!SAMPLING_KEYS.has(key)) {
      context.warnings.push(
        `${describeConfigFile(context.file)}: ${formatKeyPath(['sampling', key])}: not a sampling setting (model, servers, hints, tools); ignored`,
      );
    }
  }
  const servers: Record<string, string> = {};
  for (const [name, model] of Object.entries(sampling.servers ?? {})) {
    if (!context.serverNames.has(name)) {
      context.warnings.push(
        `${describeConfigFile(context.file)}: ${formatKeyPath(['sampling', 'servers', name])}: no server is named ${quoteKey(name)}; ignored`,
      );
      continue;
    }
    setOwnProperty(servers, name, resolveScriptedModel(model, context.baseDirectory));
  }
  const hints: Record<string, string> = {};
  for (const [hint, model] of Object.entries(sampling.hints ?? {})) {
    setOwnProperty(hints, hint, resolveScriptedModel(model, context.baseDirectory));
  }
  return {
    ...(sampling.model !== undefined ? { model: resolveScriptedModel(sampling.model, context.baseDirectory) } : {}),
    servers,
    hints,
    tools: sampling.tools ?? true,
  };
}

/** A `scripted:PATH` model reads a script file, which belongs beside the config that names it. */
function resolveScriptedModel(model: string, baseDirectory: string): string {
  if (!model.startsWith(SCRIPTED_PREFIX) || model === SCRIPTED_PREFIX) return model;
  return `${SCRIPTED_PREFIX}${path.resolve(baseDirectory, model.slice(SCRIPTED_PREFIX.length))}`;
}
