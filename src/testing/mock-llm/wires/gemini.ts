/**
 * The Gemini wire of the mock LLM server: `POST /v1beta/models/{model}:generateContent` (JSON) and
 * `:streamGenerateContent?alt=sse` (SSE: `data:` frames, each a whole GenerateContentResponse, no
 * `[DONE]`), the API key in `x-goog-api-key` or `?key=`, errors in Google's shape — what
 * `@google/genai` parses, so hosts are tested through the official client.
 *
 * Like the real API, every function-call turn carries a `thoughtSignature` on its first call part
 * (a test can check it comes back byte for byte), and a request is rejected when a function-call
 * turn is not followed by exactly one function response per call, or when a declaration's legacy
 * `parameters` holds what Gemini's `Schema` type refuses (`gemini-schema-check.ts`).
 *
 * Call ids: Gemini often sends function calls without an `id`. `createGeminiWire({ callIds: 'omit' })`
 * builds a wire that leaves them out (pass it as `wires` to `startMockLlmServer`); the default wire
 * sends the script's ids.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConversationView, ScriptAnswer } from '../../script-types.js';
import { splitIntoChunks } from '../../split-into-chunks.js';
import { userQuestions } from '../../user-questions.js';
import { sendJson } from '../http-io.js';
import { startSse, writeSseFrame } from '../sse.js';
import type { MockWire } from '../wire.js';
import { checkGeminiParameters } from './gemini-schema-check.js';

type TurnAnswer = ScriptAnswer & { kind: 'turn' };
type Json = Record<string, unknown>;

export interface GeminiWireOptions {
  /** `send` (default): function calls carry the script's ids. `omit`: no ids, as Gemini often does. */
  callIds?: 'send' | 'omit';
}

const routePattern = /^\/v1(?:beta|alpha)?\/(?:models|tunedModels)\/([^/:]+):(generateContent|streamGenerateContent)$/;
const functionNamePattern = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** Google's `status` name for each HTTP status it uses. */
const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function createGeminiWire(options: GeminiWireOptions = {}): MockWire {
  const sendIds = (options.callIds ?? 'send') === 'send';
  return {
    name: 'gemini',
    paths: ['POST /v1beta/models/{model}:generateContent', 'POST /v1beta/models/{model}:streamGenerateContent'],
    matches: (method, path) => method === 'POST' && routePattern.test(path),
    checkAuth(req: IncomingMessage) {
      const header = req.headers['x-goog-api-key'];
      const key = new URL(req.url ?? '/', 'http://mock.invalid').searchParams.get('key');
      if ((typeof header === 'string' && header !== '') || (key !== null && key !== '')) return undefined;
      return "Method doesn't allow unregistered callers (callers without established identity). Send an API key in the `x-goog-api-key` header or the `key` query parameter (the mock accepts any key).";
    },
    readRequest: (body, path) => readGeminiRequest(body, path),
    writeAnswer(res, answer, view) {
      const parts = answerParts(answer, view, sendIds);
      if (view.stream) writeStream(res, parts, view);
      else sendJson(res, 200, response(parts, view, true));
    },
    writeError(res, status, message) {
      sendJson(res, status, { error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN' } });
    },
  };
}

export const geminiWire: MockWire = createGeminiWire();

function readGeminiRequest(body: unknown, path: string): ConversationView {
  const route = routePattern.exec(path.split('?')[0] ?? '');
  if (!route?.[1]) throw new Error(`Unknown Gemini route ${path}`);
  if (!isJson(body)) throw new Error('Invalid JSON payload received. The request body must be a JSON object.');
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    throw new Error('* GenerateContentRequest.contents: contents is not specified');
  }
  const toolNames = readToolNames(body.tools);
  const contents = body.contents.map((content, index) => readContent(content, index));
  checkFunctionResponses(contents);
  const firstUser = contents.find((content) => content.role === 'user');
  const last = contents.at(-1);
  return {
    model: route[1],
    stream: route[2] === 'streamGenerateContent',
    toolNames,
    firstUserText: firstUser ? textOf(firstUser.parts) : '',
    assistantTurns: contents.filter((content) => content.role === 'model').length,
    callIds: contents.flatMap((content) =>
      content.parts.flatMap((part) =>
        isJson(part.functionCall) && typeof part.functionCall.id === 'string' ? part.functionCall.id : [],
      ),
    ),
    userQuestions: userQuestions(
      contents,
      (content) => content.role === 'model',
      (content) => (content.role === 'user' ? textOf(content.parts) : undefined),
    ),
    lastToolResults:
      last?.role === 'user'
        ? last.parts
            .filter((part) => isJson(part.functionResponse))
            .map((part) => readResult(part.functionResponse as Json))
        : [],
  };
}

interface ReadContent {
  role: 'user' | 'model';
  parts: Json[];
}

function readToolNames(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) throw new Error('* GenerateContentRequest.tools: must be a list');
  return tools.flatMap((tool, toolIndex) => {
    const declarations = isJson(tool) && Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    return declarations.map((declaration, index) => {
      const where = `* GenerateContentRequest.tools[${toolIndex}].function_declarations[${index}]`;
      if (!isJson(declaration) || typeof declaration.name !== 'string' || !functionNamePattern.test(declaration.name)) {
        throw new Error(
          `${where}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:) or dashes (-), with a maximum length of 64.`,
        );
      }
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        throw new Error(`${where}: only one of parameters or parameters_json_schema may be set`);
      }
      if (declaration.parameters !== undefined) checkGeminiParameters(declaration.parameters, `${where}.parameters`);
      return declaration.name;
    });
  });
}

function readContent(content: unknown, index: number): ReadContent {
  const where = `* GenerateContentRequest.contents[${index}]`;
  if (!isJson(content)) throw new Error(`${where}: must be an object`);
  const role = content.role ?? 'user';
  if (role !== 'user' && role !== 'model') throw new Error(`${where}.role: must be "user" or "model"`);
  if (!Array.isArray(content.parts) || content.parts.length === 0) {
    throw new Error(`${where}.parts: contents.parts must not be empty`);
  }
  const parts = content.parts.map((part, partIndex) => {
    if (!isJson(part)) throw new Error(`${where}.parts[${partIndex}]: must be an object`);
    const response = part.functionResponse;
    if (
      response !== undefined &&
      (!isJson(response) || typeof response.name !== 'string' || !isJson(response.response))
    ) {
      throw new Error(`${where}.parts[${partIndex}].function_response: name and response (an object) are required`);
    }
    return part;
  });
  return { role, parts };
}

/** Each function-call turn must be answered by a user turn with one function response per call. */
function checkFunctionResponses(contents: ReadContent[]): void {
  for (const [index, content] of contents.entries()) {
    if (content.role !== 'model') continue;
    const calls = content.parts.filter((part) => isJson(part.functionCall)).map((part) => part.functionCall as Json);
    const next = contents[index + 1];
    if (calls.length === 0 || next === undefined) continue;
    const responses = next.parts
      .filter((part) => isJson(part.functionResponse))
      .map((part) => part.functionResponse as Json);
    if (next.role !== 'user' || responses.length !== calls.length) {
      throw new Error(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
    }
    const callIds = new Set<unknown>(calls.map((call) => call.id).filter((id) => typeof id === 'string'));
    for (const response of responses) {
      if (response.id !== undefined && !callIds.has(response.id)) {
        throw new Error(
          `function_response.id ${String(response.id)} does not match a function call of the previous turn`,
        );
      }
    }
  }
}

/** A result's text for the script: `output` (or `error`) as text, images as `[image: <type>]`. */
function readResult(functionResponse: Json): { text: string; isError: boolean } {
  const response = functionResponse.response as Json;
  const isError = 'error' in response;
  const value = isError ? response.error : 'output' in response ? response.output : response;
  const images = Array.isArray(functionResponse.parts)
    ? functionResponse.parts
        .filter((part): part is Json => isJson(part) && isJson(part.inlineData))
        .map((part) => `[image: ${String((part.inlineData as Json).mimeType)}]`)
    : [];
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { text: [text, ...images].filter((item) => item !== '').join('\n'), isError };
}

function textOf(parts: Json[]): string {
  return parts
    .filter((part) => typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text as string)
    .join('\n');
}

/** The model's parts: text first, then one function call each (the first carries a signature). */
function answerParts(answer: TurnAnswer, view: ConversationView, sendIds: boolean): Json[] {
  const parts: Json[] = [];
  if (answer.text !== undefined && answer.text !== '') parts.push({ text: answer.text });
  for (const [index, call] of answer.toolCalls.entries()) {
    parts.push({
      functionCall: { ...(sendIds && { id: call.id }), name: call.name, args: call.arguments },
      ...(index === 0 && { thoughtSignature: thoughtSignature(view, call.name) }),
    });
  }
  return parts;
}

/** Opaque, deterministic bytes standing in for the model's encrypted reasoning state. */
function thoughtSignature(view: ConversationView, name: string): string {
  return Buffer.from(`mock-thought-signature/${view.model}/${view.assistantTurns}/${name}/\u0000\u00ff`).toString(
    'base64',
  );
}

function response(parts: Json[], view: ConversationView, final: boolean): Json {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(final && { finishReason: 'STOP' }),
        index: 0,
      },
    ],
    ...(final && { usageMetadata: usage(parts, view) }),
    modelVersion: view.model,
    responseId: randomUUID().replaceAll('-', '').slice(0, 20),
  };
}

/** Text arrives in several frames; each function call whole, in a frame of its own; the last frame says STOP. */
function writeStream(res: ServerResponse, parts: Json[], view: ConversationView): void {
  startSse(res);
  const frames: Json[][] = [];
  for (const part of parts) {
    if (typeof part.text === 'string') frames.push(...splitIntoChunks(part.text).map((text) => [{ text }]));
    else frames.push([part]);
  }
  if (frames.length === 0) frames.push([{ text: '' }]);
  for (const [index, frameParts] of frames.entries()) {
    writeSseFrame(res, response(frameParts, view, index === frames.length - 1));
  }
  res.end();
}

/** Made-up but stable token counts: roughly four characters a token. */
function usage(parts: Json[], view: ConversationView): Json {
  const promptTokenCount = Math.max(
    1,
    Math.ceil(view.firstUserText.length / 4) + 20 * view.toolNames.length + 40 * view.assistantTurns,
  );
  const candidatesTokenCount = Math.max(1, Math.ceil(JSON.stringify(parts).length / 4));
  return { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount };
}

function isJson(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
