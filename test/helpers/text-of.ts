/** The text of an MCP tool result as a client reads it: its content blocks' texts, joined. */
export function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => part.text ?? '').join('');
}
