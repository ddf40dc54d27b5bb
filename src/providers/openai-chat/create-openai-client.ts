/**
 * One `openai` SDK client per provider instance, configured only from the resolved connection: the
 * SDK would otherwise read `OPENAI_BASE_URL`, `OPENAI_ORG_ID` … from `process.env` by itself and
 * send an OpenAI organisation header to a local server.
 */
import OpenAI from 'openai';
import type { Environment, OpenAiConnection } from '../openai-compatible/resolve-openai-connection.js';

interface OpenAiClientSettings {
  /** Retries the SDK makes on 408/409/429/5xx and connection errors, with backoff. Default 2 (the SDK's). */
  maxRetries?: number;
  env: Environment;
}

export function createOpenAiClient(connection: OpenAiConnection, settings: OpenAiClientSettings): OpenAI {
  const { env } = settings;
  return new OpenAI({
    apiKey: connection.apiKey,
    // null (not undefined) keeps the SDK from falling back to process.env.OPENAI_BASE_URL.
    baseURL: connection.baseUrl ?? null,
    organization: connection.local ? null : (env.OPENAI_ORG_ID ?? null),
    project: connection.local ? null : (env.OPENAI_PROJECT_ID ?? null),
    maxRetries: settings.maxRetries ?? 2,
  });
}
