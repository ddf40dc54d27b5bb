/**
 * Example MCP server: four arithmetic tools. The smallest real server a host can be tried against,
 * and the one the scripted "5 plus 7" demo calls.
 *
 * Each tool answers with one text block holding just the number (e.g. "12"). There is no
 * outputSchema / structuredContent on purpose: a host that prefers structured content would then
 * show the model `{"sum":12}` instead of `12`, and a bare number needs no structure.
 *
 * Run: `node dist/examples/servers/calculator.js` (stdio) or `... --http 0` (Streamable HTTP).
 */
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { serveFromCommandLine } from './serve-from-command-line.js';
import { errorResult, textResult } from './tool-results.js';

const operands = z.object({
  a: z.number().describe('The first operand.'),
  b: z.number().describe('The second operand.'),
});

/** Pure computation: no side effects, same answer every time, nothing outside the process. */
const pureFunction = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

interface Operation {
  name: string;
  title: string;
  description: string;
  /** Returns the result, or a message saying why there is none. */
  compute(a: number, b: number): number | { error: string };
}

const operations: Operation[] = [
  {
    name: 'add_numbers',
    title: 'Add numbers',
    description: 'Adds two numbers and returns the sum, e.g. a=5, b=7 gives 12.',
    compute: (a, b) => a + b,
  },
  {
    name: 'subtract',
    title: 'Subtract',
    description: 'Subtracts b from a and returns the difference (a - b).',
    compute: (a, b) => a - b,
  },
  {
    name: 'multiply',
    title: 'Multiply',
    description: 'Multiplies two numbers and returns the product.',
    compute: (a, b) => a * b,
  },
  {
    name: 'divide',
    title: 'Divide',
    description: 'Divides a by b and returns the quotient (a / b). b must not be zero.',
    compute: (a, b) =>
      b === 0 ? { error: `division by zero: cannot divide ${a} by 0; use a non-zero divisor b` } : a / b,
  },
];

function createCalculatorServer(): McpServer {
  const server = new McpServer({ name: 'calculator', version: '0.1.0' });
  for (const operation of operations) {
    server.registerTool(
      operation.name,
      {
        title: operation.title,
        description: operation.description,
        inputSchema: operands,
        annotations: { title: operation.title, ...pureFunction },
      },
      async ({ a, b }) => {
        const outcome = operation.compute(a, b);
        if (typeof outcome !== 'number') return errorResult(outcome.error);
        // Overflow gives Infinity, which JSON cannot carry and no caller wants as an answer.
        if (!Number.isFinite(outcome)) {
          return errorResult(`${operation.name}(${a}, ${b}) overflows: the result is not a finite number`);
        }
        return textResult(String(outcome));
      },
    );
  }
  return server;
}

await serveFromCommandLine({ name: 'calculator', open: () => ({ createServer: createCalculatorServer }) });
