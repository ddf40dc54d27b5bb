/**
 * What a model, or a gateway's client, is told of a tool name the catalog does not have: the name, and the close
 * names when there are any. Each caller adds what to do next in its own words.
 */
export function unknownToolText(name: string, close: readonly string[]): string {
  return close.length > 0 ? `Unknown tool "${name}". Did you mean: ${close.join(', ')}?` : `Unknown tool "${name}".`;
}
