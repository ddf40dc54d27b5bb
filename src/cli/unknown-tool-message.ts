/** What `tools call` and `connect` say for a tool name the catalog does not have: the close ones, or where to look. */
export function unknownToolMessage(name: string, close: readonly string[], listing: string): string {
  return close.length > 0
    ? `unknown tool "${name}" (did you mean ${close.join(', ')}?)`
    : `unknown tool "${name}"; ${listing} lists the tools there are`;
}
