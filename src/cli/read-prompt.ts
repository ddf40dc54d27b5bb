/**
 * `run`'s prompt from standard input: `mcp-host run -`, or `echo … | mcp-host run` with no prompt argument.
 * Bounded, so a stray `cat big.bin |` is a clear error rather than a huge request.
 */
import { CliError, EXIT_USAGE } from './exit-codes.js';

const MAX_STDIN_PROMPT_BYTES = 1024 * 1024;

/** The prompt, or undefined when the input is empty and `required` is false. */
export async function readPromptFromStdin(
  input: NodeJS.ReadableStream = process.stdin,
  required = true,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_STDIN_PROMPT_BYTES) {
      throw new CliError(`the prompt on standard input is longer than ${MAX_STDIN_PROMPT_BYTES} bytes`, EXIT_USAGE);
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') {
    if (!required) return undefined;
    throw new CliError('the prompt on standard input is empty', EXIT_USAGE);
  }
  return text;
}
