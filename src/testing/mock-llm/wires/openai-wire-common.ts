/**
 * What the two OpenAI wires of the mock LLM server share: Bearer auth, OpenAI's error shape
 * (`{error: {message, type, param, code}}`, what the `openai` SDK parses), the checks the real API
 * makes on function tools (name pattern, object schema with `properties`, strict-mode rules), and
 * reading the error convention of tool results (OpenAI has no flag: the text starts with "Error:").
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http-io.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** OpenAI's error `type` and `code` for each HTTP status it uses. */
const errorKinds: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'server_is_overloaded' },
};

export function checkBearerAuth(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+\S+/i.test(authorization)) return undefined;
  return (
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer " +
    'auth (i.e. Authorization: Bearer YOUR_KEY). The mock accepts any key.'
  );
}

export function writeOpenAiError(res: ServerResponse, status: number, message: string): void {
  const kind = errorKinds[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  sendJson(
    res,
    status,
    { error: { message, type: kind.type, param: null, code: kind.code } },
    {
      'x-request-id': requestId(),
    },
  );
}

/** Throws what the real API answers for a function tool it rejects; `where` names the field. */
export function checkFunctionTool(name: unknown, parameters: unknown, strict: boolean, where: string): string {
  if (typeof name !== 'string' || !toolNamePattern.test(name)) {
    throw new Error(
      `Invalid '${where}.name': string does not match pattern. Expected a string that matches the pattern '${toolNamePattern.source}'.`,
    );
  }
  if (parameters === undefined || parameters === null) return name;
  if (!isRecord(parameters) || parameters.type !== 'object') {
    throw new Error(`Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"'.`);
  }
  if (!isRecord(parameters.properties)) {
    throw new Error(`Invalid schema for function '${name}': In context=(), object schema missing properties.`);
  }
  if (strict) {
    const problem = strictProblem(parameters, []);
    if (problem) throw new Error(`Invalid schema for function '${name}': ${problem}`);
  }
  return name;
}

/** Strict mode: every object closed and every property required (the rules OpenAI states in its 400s). */
function strictProblem(schema: unknown, context: string[]): string | undefined {
  if (!isRecord(schema)) return undefined;
  const here = `In context=(${context.map((part) => `'${part}'`).join(', ')})`;
  if (schema.type === 'object' || isRecord(schema.properties)) {
    if (schema.additionalProperties !== false) {
      return `${here}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(properties).find((key) => !required.includes(key));
    if (missing !== undefined) {
      return `${here}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
    for (const [key, value] of Object.entries(properties)) {
      const problem = strictProblem(value, [...context, 'properties', key]);
      if (problem) return problem;
    }
  }
  for (const keyword of ['items', 'anyOf', '$defs'] as const) {
    const child = schema[keyword];
    const children = Array.isArray(child)
      ? child
      : isRecord(child) && keyword === '$defs'
        ? Object.values(child)
        : [child];
    for (const [index, value] of children.entries()) {
      const problem = strictProblem(value, [...context, keyword, String(index)]);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** OpenAI has no error flag on tool results: the host says it in the text, which is read back here. */
export function looksLikeToolError(text: string): boolean {
  return /^\s*error\b/i.test(text);
}

/** Made-up but stable token counts: roughly four characters a token. */
export function madeUpTokenCount(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

export function requestId(): string {
  return `req_mock_${shortId()}`;
}

export function shortId(): string {
  return randomUUID().replaceAll('-', '').slice(0, 24);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
