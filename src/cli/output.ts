/** The CLI's only writers: answers and data to stdout, everything else to stderr. */
export function writeOut(text: string): void {
  process.stdout.write(text);
}

export function writeLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function writeError(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
