/**
 * The schema corpus in test/fixtures/schemas/: tool input schemas shaped like the ones real MCP servers
 * publish, each with one argument value that is valid for it. Shared by the schema tests.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

export interface CorpusEntry {
  file: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  example: unknown;
}

export const corpusDirectory = fileURLToPath(new URL('../../fixtures/schemas/', import.meta.url));

export function loadCorpus(): CorpusEntry[] {
  return readdirSync(corpusDirectory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...JSON.parse(readFileSync(`${corpusDirectory}${file}`, 'utf8')) }));
}

/** Whether MCP itself can carry the schema (tools/list requires `inputSchema.type: "object"`). */
export function isMcpDeclarable(entry: CorpusEntry): boolean {
  return entry.inputSchema.type === 'object';
}

/** Validates with the same ajv build the MCP SDK uses (2020-12 unless the schema declares another dialect). */
export function validate(schema: Record<string, unknown>, value: unknown): { valid: boolean; errorMessage?: string } {
  const result = new AjvJsonSchemaValidator().getValidator(schema)(value);
  return { valid: result.valid, errorMessage: result.errorMessage };
}
