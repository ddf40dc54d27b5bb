/**
 * The arguments of a tool call the model is still streaming: JSON text cut off anywhere. Taken as far as it is
 * whole: an open string, array or object is closed, and a trailing piece that cannot stand (a key without its value,
 * half a number or keyword) is dropped. Best effort, as the extension allows for partial input.
 */

interface Scan {
  closers: string;
  inString: boolean;
  /** Where the text may be cut and closed: before a comma, after an opening bracket. */
  cuts: number[];
}

function scan(text: string): Scan {
  const stack: string[] = [];
  const cuts: number[] = [];
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      stack.push(char === '{' ? '}' : ']');
      cuts.push(index + 1);
    } else if (char === '}' || char === ']') stack.pop();
    else if (char === ',') cuts.push(index);
  }
  return { closers: stack.reverse().join(''), inString, cuts };
}

function parseClosed(text: string): unknown {
  const { closers, inString } = scan(text);
  const body = inString ? `${text.replace(/\\$/, '')}"` : text;
  try {
    return JSON.parse(body + closers);
  } catch {
    return undefined;
  }
}

const MAX_ATTEMPTS = 8;

export function parsePartialArguments(text: string): Record<string, unknown> | undefined {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const whole = parseClosed(text);
  if (isObject(whole)) return whole;
  const { cuts } = scan(text);
  for (const cut of cuts.reverse().slice(0, MAX_ATTEMPTS)) {
    const value = parseClosed(text.slice(0, cut));
    if (isObject(value)) return value;
  }
  return undefined;
}
