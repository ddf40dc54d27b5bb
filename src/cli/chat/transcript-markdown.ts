/** A neutral transcript as Markdown, for `/save FILE`: who said what, and each tool call with its result. */
import type { Message } from '../../providers/types.js';

export function transcriptAsMarkdown(messages: readonly Message[]): string {
  const blocks: string[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mimeType}]`));
      blocks.push(`**You:** ${text.join('\n')}`);
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'text') blocks.push(`**Assistant:** ${part.text}`);
        else blocks.push(`Tool call \`${part.name}\`: \`${part.argumentsText}\``);
      }
    } else {
      for (const result of message.results) {
        const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
        blocks.push(`Result of \`${result.toolName}\`${result.isError ? ' (error)' : ''}:\n\n\`\`\`\n${text}\n\`\`\``);
      }
    }
  }
  return `${blocks.join('\n\n')}\n`;
}
