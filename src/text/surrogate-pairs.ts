/** A cut in a JavaScript string must not fall inside a surrogate pair (an emoji, say): half of one shows as garbage. */

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `at`, moved back one where it would cut a surrogate pair in two. */
export function pairSafeIndex(text: string, at: number): number {
  return at > 0 && isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}
