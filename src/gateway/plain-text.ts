/** Text from servers and the model reaches another program's UI through the gateway: no terminal control codes. */

// C0 controls except tab and newline, DEL, and C1 controls (which include the 8-bit CSI and OSC introducers).
function isControlCharacter(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

export function stripControlCharacters(text: string): string {
  let result = '';
  for (const character of text) {
    if (!isControlCharacter(character.codePointAt(0) ?? 0)) result += character;
  }
  return result;
}
