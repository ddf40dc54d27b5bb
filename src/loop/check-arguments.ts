/** The argument step of a call: the model's arguments against the tool's `inputSchema`, before anyone is asked. */
import type { ArgumentValidator } from '../catalog/argument-validation.js';
import { jsonSchemaEnginesLoaded, loadJsonSchemaEngines } from '../json/json-schema-engines.js';
import type { ToolCallDependencies } from './execute-tool-call.js';

/** `onWarning`: a schema that could not be compiled (its calls go unchecked), said once per schema. */
export function createCheckArguments(
  validator: ArgumentValidator,
  onWarning: (message: string) => void,
): NonNullable<ToolCallDependencies['validateArguments']> {
  const checkNow: NonNullable<ToolCallDependencies['validateArguments']> = (entry, args) => {
    const check = validator.check(entry.name, entry.tool.inputSchema, args);
    if (!check.valid) return check.message;
    if (check.warning !== undefined) onWarning(check.warning);
    return undefined;
  };
  // The first check waits for the validator's import (started earlier where a caller could); later ones are
  // synchronous.
  return (entry, args) =>
    jsonSchemaEnginesLoaded() ? checkNow(entry, args) : loadJsonSchemaEngines().then(() => checkNow(entry, args));
}
