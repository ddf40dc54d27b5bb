/**
 * Markdown from a server or model, through a sanitiser: marked turns it into HTML, DOMPurify keeps only harmless
 * elements (no scripts, styles, forms, frames or event handlers; links open nothing by themselves), and only then
 * is it placed in the page. Images from the network would be blocked by the page's CSP anyway.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'del',
];

// A link opens in a new tab, never in place of the UI, and tells the other site nothing.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

export function sanitiseMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR: ['href', 'title'], ALLOWED_URI_REGEXP: /^https?:/i });
}

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => sanitiseMarkdown(showDirectionControls(text)), [text]);
  // Sanitised above: the only place the UI sets HTML.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML comes out of DOMPurify with a short allow-list.
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
