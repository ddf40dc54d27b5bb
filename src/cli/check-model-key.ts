/**
 * `run` needs a model; finding out that its key is missing only after every server started wastes the user's time.
 * The model is chosen and its key looked up first, and a missing one is a usage error naming the variable to set;
 * so is the scripted model's missing script file.
 */
import { dirname } from 'node:path';
import { formatKeyPath } from '../config/key-path.js';
import type { HostConfig } from '../config/types.js';
import { chooseModel, ModelChoiceError, type ProviderId, parseModelSpec } from '../host/model-choice.js';
import { scriptFileProblem } from '../testing/script-file.js';
import { CliError, EXIT_USAGE } from './exit-codes.js';

/** The variables each provider reads its key (or, for openai-compatible, its address) from; none for the rest. */
const REQUIRED_VARIABLES: Partial<Record<ProviderId, { variables: string[]; what: string }>> = {
  anthropic: { variables: ['ANTHROPIC_API_KEY'], what: 'an API key' },
  openai: { variables: ['OPENAI_API_KEY'], what: 'an API key' },
  'openai-responses': { variables: ['OPENAI_API_KEY'], what: 'an API key' },
  gemini: { variables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], what: 'an API key' },
};

/** Throws a usage error when the model `run` would use cannot be reached for lack of a key or address. */
export function checkModelKey(options: {
  model?: string;
  baseUrl?: string;
  config: HostConfig;
  env: Record<string, string | undefined>;
}): void {
  checkSamplingModels(options.config);
  // An unknown or missing model throws ModelChoiceError, itself a usage error naming every way to choose one.
  const { spec, source } = chooseModel({ flag: options.model, config: options.config.model, env: options.env });
  const { provider, model } = parseModelSpecFrom(spec, source === 'config' ? options.config.file : undefined);
  const chosen = `${provider}:${model}`;
  if (provider === 'scripted') {
    // As the host resolves it: a path on the command line from here, one in the config from the config's folder.
    const folder =
      source === 'flag' || options.config.file === undefined ? process.cwd() : dirname(options.config.file);
    const problem = scriptFileProblem(model, folder);
    if (problem !== undefined) {
      throw new CliError(
        `the model ${chosen} needs its script, and ${problem}: name a script file (examples/scripts/ has some)`,
        EXIT_USAGE,
      );
    }
  }
  if (provider === 'openai-compatible' && !options.baseUrl && !options.env.OPENAI_BASE_URL) {
    throw new CliError(
      `the model ${chosen} needs the address of its server: pass --base-url URL (e.g. --base-url http://127.0.0.1:8080/v1) or set OPENAI_BASE_URL`,
      EXIT_USAGE,
    );
  }
  const missing = missingKeyOf(chosen, provider, options.env);
  if (missing !== undefined) throw new CliError(`${missing}, or choose another model with --model`, EXIT_USAGE);
}

/**
 * A model the config names at `keyPath` that does not parse is a config error: named with the file and its key, as
 * others are.
 */
function parseModelSpecFrom(
  spec: string,
  configFile: string | undefined,
  keyPath: readonly string[] = ['model'],
): ReturnType<typeof parseModelSpec> {
  try {
    return parseModelSpec(spec);
  } catch (error) {
    if (configFile === undefined || !(error instanceof ModelChoiceError)) throw error;
    throw new CliError(`${configFile}: ${formatKeyPath(keyPath)}: ${error.message}`, EXIT_USAGE);
  }
}

/** The models the config's `sampling` names are read as `model` is: one that does not parse is a config error too. */
function checkSamplingModels(config: Pick<HostConfig, 'file' | 'sampling'>): void {
  const sampling = config.sampling;
  if (sampling === undefined || config.file === undefined) return;
  if (sampling.model !== undefined) parseModelSpecFrom(sampling.model, config.file, ['sampling', 'model']);
  for (const [name, model] of Object.entries(sampling.servers)) {
    parseModelSpecFrom(model, config.file, ['sampling', 'servers', name]);
  }
  for (const [hint, model] of Object.entries(sampling.hints)) {
    parseModelSpecFrom(model, config.file, ['sampling', 'hints', hint]);
  }
}

/**
 * `the model openai:gpt-5 needs an API key: set OPENAI_API_KEY in the environment` when the provider's key is not
 * set; the caller says how to choose another model (`--model`, or chat's `/model`).
 */
export function missingKeyOf(
  chosen: string,
  provider: ProviderId,
  env: Record<string, string | undefined>,
): string | undefined {
  const required = REQUIRED_VARIABLES[provider];
  if (required === undefined || required.variables.some((variable) => env[variable])) return undefined;
  const variables = required.variables.join(' (or ');
  const closing = required.variables.length > 1 ? ')' : '';
  return `the model ${chosen} needs ${required.what}: set ${variables}${closing} in the environment`;
}
