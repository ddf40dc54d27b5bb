/**
 * A tool's input schema in draft-04's terms, `minimum` or `maximum` made exclusive by a boolean beside it, is
 * checked as it means, whether it names draft-04 in `$schema` or names no dialect (read as 2020-12, where those
 * keywords must be numbers): a value on the bound is refused before the call is sent, one inside it goes through,
 * and the schema compiles, so no warning says its calls go unchecked.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';
import { closeHosts, openHost, RecordingApprover, resultText } from './consent-helpers.js';

/** Lists exactly the input schemas given, checks nothing, and counts the calls it received. */
const schemaServerPath = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'schema-server.mjs'));

const boundedProperties = {
  // Above 0: draft-04's `exclusiveMinimum: true` makes the `minimum` beside it exclusive.
  above_zero: { type: 'number', minimum: 0, exclusiveMinimum: true },
  // Below 1, nested where only a walk of the subschemas finds it.
  fractions: { type: 'array', items: { $ref: '#/definitions/fraction' } },
  // `false` leaves the bound inclusive, as it is without it.
  at_least_one: { type: 'integer', minimum: 1, exclusiveMinimum: false },
};
const definitions = { fraction: { type: 'number', maximum: 1, exclusiveMaximum: true } };
const unnamedDialect = {
  name: 'unnamed_dialect',
  inputSchema: { type: 'object', properties: boundedProperties, definitions },
};
const namedDraft04 = {
  name: 'named_draft04',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-04/schema#',
    type: 'object',
    properties: boundedProperties,
    definitions,
  },
};

afterEach(closeHosts);

async function open(diagnostics: string[]): Promise<Host> {
  const server = stdioServer('x', [schemaServerPath], {
    trust: 'trusted',
    env: { TOOLS: JSON.stringify([unnamedDialect, namedDraft04]) },
  });
  return openHost({
    config: hostConfig([server]),
    approver: new RecordingApprover(),
    onDiagnostic: (message) => diagnostics.push(message),
  });
}

describe("draft-04's boolean exclusive bounds in an input schema", () => {
  for (const tool of [unnamedDialect.name, namedDraft04.name]) {
    it(`are checked by the host before ${tool}'s calls are sent`, async () => {
      const diagnostics: string[] = [];
      const host = await open(diagnostics);
      const refusal = async (args: Record<string, unknown>) => {
        const call = await host.callTool(`x__${tool}`, args);
        return call.outcome === 'invalid' ? resultText(call.result) : `not refused: ${call.outcome}`;
      };
      expect(await refusal({ above_zero: 0 })).toContain('- above_zero: must be > 0');
      expect(await refusal({ fractions: [0.5, 1] })).toContain('- fractions[1]: must be < 1');
      expect(await refusal({ at_least_one: 0 })).toContain('- at_least_one: must be >= 1');

      const fitting = { above_zero: 0.001, fractions: [0, 0.999], at_least_one: 1 };
      const sent = await host.callTool(`x__${tool}`, fitting);
      expect(sent.outcome).toBe('ok');
      expect(resultText(sent.result)).toBe(`received ${tool} ${JSON.stringify(fitting)}`);
      expect(resultText((await host.callTool('x__calls_received', {})).result)).toBe('1');
      expect(diagnostics.filter((line) => line.includes('could not be compiled'))).toEqual([]);
    });
  }
});
