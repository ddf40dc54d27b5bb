/**
 * The zod schema of the script format (see `script-types.ts`). Scripts are written by hand, so the
 * schema is strict: a misspelt key is an error naming its path, not a silently ignored field.
 */
import { z } from 'zod';
import type { Script } from './script-types.js';

const toolCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
});

const expectationSchema = z.strictObject({
  toolsInclude: z.array(z.string()).optional(),
  lastToolResultIncludes: z.string().optional(),
  lastToolResultIsError: z.boolean().optional(),
});

const turnSchema = z
  .strictObject({
    expect: expectationSchema.optional(),
    text: z.string().optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    toolSearch: z.strictObject({ query: z.string().min(1) }).optional(),
    pauseTurn: z.boolean().optional(),
    error: z.strictObject({ status: z.number().int().min(400).max(599), message: z.string() }).optional(),
  })
  .refine(
    (turn) =>
      turn.text !== undefined ||
      turn.toolCalls !== undefined ||
      turn.toolSearch !== undefined ||
      turn.error !== undefined,
    { message: 'a turn needs at least one of "text", "toolCalls", "toolSearch" or "error"' },
  )
  .refine((turn) => turn.pauseTurn !== true || (turn.toolCalls ?? []).length === 0, {
    message: 'a paused turn ("pauseTurn") has no "toolCalls": the model calls tools once the turn goes on',
    path: ['toolCalls'],
  });

const scenarioSchema = z.strictObject({
  match: z.string().refine(isValidRegularExpression, { message: 'not a valid regular expression' }).optional(),
  turns: z.array(turnSchema),
});

export const scriptSchema: z.ZodType<Script> = z.strictObject({
  fallbackText: z.string().optional(),
  scenarios: z.array(scenarioSchema),
});

function isValidRegularExpression(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
