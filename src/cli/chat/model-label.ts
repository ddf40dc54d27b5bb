/** A model as the chat shows it: a scripted model by its file name, not the path it was resolved to. */
import { basename } from 'node:path';

export function modelLabel(spec: string): string {
  return spec.startsWith('scripted:') ? `scripted:${basename(spec.slice('scripted:'.length))}` : spec;
}
