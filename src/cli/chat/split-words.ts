/** `a=1 b="two words"` → [`a=1`, `b=two words`]: words split on spaces, double quotes keep spaces in. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /(?:[^\s"]+|"[^"]*"?)+/g;
  for (const match of text.matchAll(pattern)) words.push(match[0].replace(/"/g, ''));
  return words;
}
