/**
 * The shape of a config file, as zod schemas whose messages are the "expected …" half of a `ConfigError`. Only
 * shapes live here; meaning (transport inference, substitution, paths) is applied by the parser afterwards.
 * Objects are not strict: other hosts write their own keys, which become warnings rather than errors.
 */

import { z } from 'zod';
import { rootsSchema, samplingSchema } from './client-feature-settings.js';
import { gatewaySchema, profilesSchema } from './gateway-settings.js';
import { MAX_TOOL_TIMEOUT_MS } from './types.js';

const stringList = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });
const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: 'a string' }), { error: `an object mapping ${what} to strings` });

/** `type` values other hosts write, mapped to the host's transport names. */
export const TRANSPORT_TYPES = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
} as const;

type TransportType = keyof typeof TRANSPORT_TYPES;

const transportTypeNames = Object.keys(TRANSPORT_TYPES) as [TransportType, ...TransportType[]];

const positiveMilliseconds = z
  .int({ error: 'a positive whole number of milliseconds' })
  .positive({ error: 'a positive whole number of milliseconds' })
  .max(MAX_TOOL_TIMEOUT_MS, { error: `at most ${MAX_TOOL_TIMEOUT_MS} milliseconds (about 24 days)` });
const positiveCount = (what: string) =>
  z.int({ error: `a positive whole number of ${what}` }).positive({ error: `a positive whole number of ${what}` });

/** Per-tool overrides under a server's `tools` key, by the tool's original name. */
const toolOverrideSchema = z.object(
  {
    timeoutMs: positiveMilliseconds.optional(),
    maxTotalTimeoutMs: positiveMilliseconds.optional(),
    maxResultTokens: positiveCount('tokens').optional(),
  },
  { error: 'an object with `timeoutMs`, `maxTotalTimeoutMs` or `maxResultTokens`' },
);

export const serverEntrySchema = z.object({
  type: z
    .enum(transportTypeNames, { error: `one of ${transportTypeNames.map((name) => `"${name}"`).join(', ')}` })
    .optional(),
  command: z
    .string({ error: 'a command to run, as a string' })
    .min(1, { error: 'a non-empty command to run' })
    .optional(),
  args: stringList.optional(),
  env: stringMap('variable names').optional(),
  cwd: z.string({ error: 'a folder path as a string' }).min(1, { error: 'a non-empty folder path' }).optional(),
  /** A dotenv file of variables for the server, as VS Code reads it; `env` wins over it. */
  envFile: z.string({ error: 'a file path as a string' }).min(1, { error: 'a non-empty file path' }).optional(),
  url: z.string({ error: 'a URL as a string' }).min(1, { error: 'a non-empty URL' }).optional(),
  headers: stringMap('header names').optional(),
  trust: z.enum(['trusted', 'untrusted'], { error: '"trusted" or "untrusted"' }).optional(),
  timeoutMs: z
    .int({ error: 'a positive whole number of milliseconds' })
    .positive({ error: 'a positive whole number of milliseconds' })
    .max(MAX_TOOL_TIMEOUT_MS, { error: `at most ${MAX_TOOL_TIMEOUT_MS} milliseconds (about 24 days)` })
    .optional(),
  startupTimeoutMs: positiveMilliseconds.optional(),
  /** The server's `instructions` in the system prompt: default yes for a trusted server, no for an untrusted one. */
  allowInstructions: z.boolean({ error: 'true or false' }).optional(),
  disabled: z.boolean({ error: 'true or false' }).optional(),
  /** The server keeps state per connection: a stateless gateway sends one client session's requests to one copy. */
  stateful: z.boolean({ error: 'true or false' }).optional(),
  versionNegotiation: z.enum(['legacy', 'auto'], { error: '"legacy" or "auto"' }).optional(),
  /** Checked by `buildOAuthSettings`, which reports the exact key inside it. */
  oauth: z.unknown().optional(),
  maxTotalTimeoutMs: positiveMilliseconds.optional(),
  maxResultTokens: positiveCount('tokens').optional(),
  maxMessageBytes: positiveCount('bytes').optional(),
  tools: z.record(z.string(), toolOverrideSchema, { error: 'an object mapping tool names to overrides' }).optional(),
});

export type ServerEntry = z.infer<typeof serverEntrySchema>;

export const SERVER_ENTRY_KEYS: ReadonlySet<string> = new Set(Object.keys(serverEntrySchema.shape));

/** Keys that only a local (stdio) or only a remote server uses; the other kind ignores them with a warning. */
export const STDIO_ONLY_KEYS = ['command', 'args', 'env', 'envFile', 'cwd'] as const;
export const REMOTE_ONLY_KEYS = ['url', 'headers', 'oauth'] as const;

const serverMap = z.record(z.string(), z.unknown(), { error: 'an object mapping server names to server entries' });

const permissionsSchema = z.object(
  { allow: stringList.optional(), ask: stringList.optional(), deny: stringList.optional() },
  { error: 'an object with `allow`, `ask` and `deny` arrays of rule strings' },
);

export const PERMISSION_KEYS: ReadonlySet<string> = new Set(Object.keys(permissionsSchema.shape));

const dollarsPerMillion = z
  .number({ error: 'US dollars per million tokens, as a number' })
  .finite({ error: 'a finite number of US dollars per million tokens' })
  .nonnegative({ error: 'US dollars per million tokens, not negative' });
const modelPricesSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9-]*:.+$/, { error: 'a model as "provider:model", e.g. "openai:gpt-4.1"' }),
  z.strictObject({
    inputPerMillion: dollarsPerMillion,
    outputPerMillion: dollarsPerMillion,
    cachedInputPerMillion: dollarsPerMillion.optional(),
  }),
  { error: 'an object of prices by "provider:model"' },
);

export const topLevelSchema = z.object(
  {
    mcpServers: serverMap.optional(),
    /** VS Code's name for the same map. */
    servers: serverMap.optional(),
    /** VS Code's input prompts: not supported, ignored without a warning because VS Code files always carry it. */
    inputs: z.unknown().optional(),
    /** Editors' schema hint. */
    $schema: z.unknown().optional(),
    model: z
      .string({ error: 'a model as a string, e.g. "anthropic:claude-sonnet-4-6"' })
      .min(1, {
        error: 'a non-empty model, e.g. "anthropic:claude-sonnet-4-6"',
      })
      .optional(),
    permissions: permissionsSchema.optional(),
    maxTurns: positiveCount('turns').optional(),
    /** The model's system prompt, before project instructions, servers' instructions and the skills listing. */
    system: z.string({ error: 'the system prompt as a string' }).optional(),
    /** The most tokens the model may write in one response (`max_tokens` and its equivalents). */
    maxOutputTokens: positiveCount('tokens').optional(),
    maxParallelCalls: positiveCount('calls').optional(),
    maxTotalTimeoutMs: positiveMilliseconds.optional(),
    maxResultTokens: positiveCount('tokens').optional(),
    maxTurnResultTokens: positiveCount('tokens').optional(),
    /** A conversation's context window, in estimated tokens: older turns are compacted as it nears it. */
    contextTokens: positiveCount('tokens').optional(),
    /** US dollars per million tokens by `provider:model`, over the built-in table (for the web UI's cost counter). */
    modelPrices: modelPricesSchema.optional(),
    auditFile: z.string({ error: 'a file path as a string' }).min(1, { error: 'a non-empty file path' }).optional(),
    roots: rootsSchema.optional(),
    sampling: samplingSchema.optional(),
    /** Folders of Agent Skills (one skill, or a folder of skill folders), or `false` to use no skills. */
    skills: z
      .union(
        [
          z.literal(false),
          z.array(z.string({ error: 'a folder path as a string' }).min(1, { error: 'a non-empty folder path' })),
        ],
        {
          error: 'an array of folder paths, or false to use no skills',
        },
      )
      .optional(),
    /** `false`: no AGENTS.md / CLAUDE.md / memory in the system prompt. */
    instructions: z.boolean({ error: 'true or false' }).optional(),
    maxInstructionTokens: positiveCount('tokens').optional(),
    /** Meta-tools (search, describe, call) instead of every definition: above a token threshold, always or never. */
    toolDiscovery: z.enum(['auto', 'always', 'never'], { error: '"auto", "always" or "never"' }).optional(),
    /** Discovery through the provider's own tool search: for the models it lists, for any of its models, or never. */
    nativeToolSearch: z.enum(['auto', 'always', 'never'], { error: '"auto", "always" or "never"' }).optional(),
    /** OpenAI (Chat Completions and Responses): ask for strict mode on each tool whose schema can be strict. */
    strictTools: z.boolean({ error: 'true or false' }).optional(),
    /** `mcp-host serve`: who may connect and how much they may send. */
    gateway: gatewaySchema.optional(),
    /** `mcp-host serve --profile NAME`: named subsets of servers and tools. */
    profiles: profilesSchema.optional(),
  },
  { error: 'a JSON object with an `mcpServers` key' },
);

export const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(Object.keys(topLevelSchema.shape));

/** The first issue of a failed parse, as a path and the "expected" text the schema carries. */
export function firstIssue(error: z.ZodError): { path: PropertyKey[]; expected: string; unknownKey?: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { path: [], expected: 'a valid value' };
  // A value of one alternative's kind (an array where it takes false or an array) failed inside it: that alternative
  // says where and what, as a value with no union around it would.
  const inside = issue.code === 'invalid_union' ? failureInsideOneAlternative(issue.errors) : undefined;
  if (inside !== undefined) {
    const found = firstIssue(new z.ZodError(inside));
    return { ...found, path: [...issue.path, ...found.path] };
  }
  // A closed object's message lists the keys it takes; the key it does not take is named beside it.
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  return { path: [...issue.path], expected: issue.message, ...(unknownKey === undefined ? {} : { unknownKey }) };
}

/** The issues of the one alternative the value got into (an issue below its top); undefined unless exactly one. */
function failureInsideOneAlternative(alternatives: z.core.$ZodIssue[][]): z.core.$ZodIssue[] | undefined {
  const entered = alternatives.filter((issues) => issues.some((issue) => issue.path.length > 0));
  return entered.length === 1 ? entered[0] : undefined;
}
