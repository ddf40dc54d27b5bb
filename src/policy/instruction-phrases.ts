/**
 * Plain-text tool poisoning: words addressed to the model that no honest description needs. Published attacks
 * (a tool asking the model to read `~/.ssh/id_rsa` "or the tool will not work", to ignore previous instructions,
 * to keep something from the user, to redirect another tool's emails) use a few recurring moves; each pattern
 * names one. Tuned against a corpus of published poisoning examples and real descriptions of well-known servers
 * (test/fixtures/tool-descriptions/): every poisoned one is flagged, no benign one is.
 */

interface InstructionPhrase {
  /** What the move is, in words, for the flag. */
  what: string;
  pattern: RegExp;
}

/** A few words within one sentence (a dot inside a word, as in `.env` or `a.b`, does not end it). */
const GAP = '(?:[^.!?\\n]|\\.(?=\\S)){0,60}';

export const INSTRUCTION_PHRASES: readonly InstructionPhrase[] = [
  {
    what: 'tells the model to ignore or override its instructions',
    pattern: new RegExp(
      `\\b(?:ignore|disregard|forget|override|bypass)\\b${GAP}\\b(?:previous|prior|above|earlier|preceding|all|any|other|system|original|safety)\\b${GAP}\\b(?:instructions?|prompts?|rules|directions|guidelines|directives|policies|restrictions)\\b`,
      'i',
    ),
  },
  {
    what: 'names a credential or configuration file no tool description needs',
    pattern:
      /(?:~|\$HOME|%USERPROFILE%|\/home\/[^/\s]+|\/Users\/[^/\s]+|\/root)\/\.(?:ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|git-credentials|bash_history|zsh_history|config\/gcloud|cursor|env\b)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws\/credentials|\/etc\/(?:passwd|shadow|sudoers)\b|\bmcp\.json\b|claude_desktop_config|\bwallet\.dat\b/i,
  },
  {
    what: 'asks to keep something from the user',
    pattern: new RegExp(
      `\\b(?:do not|don't|never|must not|without)\\s+(?:\\w+\\s+){0,2}(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|notify(?:ing)?|alert(?:ing)?|show(?:ing)?|disclos(?:e|ing)|let(?:ting)?)\\b${GAP}\\b(?:user|human|them|anyone)\\b|\\b(?:hide|conceal)\\b${GAP}\\bfrom the user\\b|\\bthe user (?:must|should|need) not (?:know|see|notice|be told)`,
      'i',
    ),
  },
  {
    what: 'asks to send secrets or the conversation somewhere',
    pattern: new RegExp(
      `\\b(?:send|forward|upload|post|exfiltrate|transmit|e-?mail|leak|share|pass|include|append|attach|copy)\\b${GAP}\\b(?:credentials?|secrets?|api[_ -]?keys?|passwords?|private[_ -]?keys?|ssh[_ -]?keys?|access[_ -]?tokens?|session[_ -]?tokens?|system prompt|conversation(?: history)?|chat history|environment variables)\\b${GAP}\\b(?:to|as|in|into|with)\\b`,
      'i',
    ),
  },
  {
    what: 'makes the tool depend on a step the model must take first',
    pattern: new RegExp(
      `\\bbefore (?:using|calling|invoking|running|executing) (?:this|the|any|each|every) (?:\\w+ )?tool\\b${GAP}\\b(?:read|call|run|send|pass|fetch|must|first|always)\\b|\\botherwise the tool (?:will not|won't|cannot|can't|does not) work\\b`,
      'i',
    ),
  },
  {
    what: 'reaches into the behaviour of other tools',
    pattern:
      /\b(?:when|while|if) (?:this|the) tool is (?:available|present|installed|loaded|enabled)\b|\bside effect on\b[^.!?\n]{0,60}\btool\b|\b(?:all|every) (?:e-?mails?|messages?|requests?|payments?|transfers?)\b[^.!?\n]{0,60}\bmust (?:be )?(?:sent|go|forwarded|redirected|routed)\b|\bchange the (?:recipient|destination|receiver|account number)\b/i,
  },
  {
    what: 'speaks to the model as its operator',
    pattern:
      /\b(?:you are now|from now on,? you|new (?:system )?instructions?:|system override|developer mode|jailbreak|as an ai(?: assistant)?,? you must|assistant must always)\b/i,
  },
  {
    what: 'embeds a link built to carry data out',
    pattern: /!\[[^\]]*\]\(\s*https?:\/\/[^)\s]*[?&][^)\s]*=|\bhttps?:\/\/[^\s)]*(?:\{|%7B|\$\{)[^\s)]*(?:\}|%7D)/i,
  },
];
