/**
 * The models a host uses: its own (the caller's provider, else `--model`, else the config's, else one picked from
 * the keys in the environment), created on first use since listing tools needs none, and models named later.
 */
import { dirname } from 'node:path';
import type { HostConfig } from '../config/types.js';
import type { LlmProvider } from '../providers/types.js';
import { createProvider } from './create-provider.js';
import { chooseModel } from './model-choice.js';

interface HostModelSettings {
  config: HostConfig;
  /** A provider built by the caller; overrides `model`. */
  provider?: LlmProvider;
  /** `provider:model` from the command line. */
  model?: string;
  baseUrl?: string;
  env: Record<string, string | undefined>;
  cwd: string;
}

interface HostModel {
  /** The host's model, created on the first call. */
  provider(): Promise<LlmProvider>;
  /** A model the config names (servers' sampling preferences): a relative script path is relative to the config. */
  configured(spec: string): Promise<LlmProvider>;
  /** A model the user names (mid-conversation): a relative script path is relative to where they are. */
  named(spec: string): Promise<LlmProvider>;
}

export function createHostModel(settings: HostModelSettings): HostModel {
  const { config, env, cwd, baseUrl } = settings;
  const configFolder = config.file ? dirname(config.file) : cwd;
  // "auto" leaves each provider's own table of models in force.
  const nativeToolSearch =
    config.nativeToolSearch === 'always' ? true : config.nativeToolSearch === 'never' ? false : undefined;
  const common = {
    ...(nativeToolSearch === undefined ? {} : { nativeToolSearch }),
    ...(config.strictTools === undefined ? {} : { strictTools: config.strictTools }),
  };
  let created: Promise<LlmProvider> | undefined;
  return {
    provider() {
      if (settings.provider) return Promise.resolve(settings.provider);
      created ??= (async () => {
        const choice = chooseModel({ flag: settings.model, config: config.model, env });
        // A path on the command line is the user's, relative to where they are; one in the config is relative to it.
        return createProvider(choice.spec, {
          baseUrl,
          env,
          cwd: choice.source === 'flag' ? cwd : configFolder,
          ...common,
        });
      })();
      return created;
    },
    configured: (spec) => createProvider(spec, { baseUrl, env, cwd: configFolder, ...common }),
    named: (spec) => createProvider(spec, { baseUrl, env, cwd, ...common }),
  };
}
