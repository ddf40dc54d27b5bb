/** The browser's side of a view's download: kept apart from the checks, which run outside a browser too. */
import type { ViewFile } from './view-downloads';

/** Saves each file through the browser's download, never opening it. */
export function saveFiles(files: ViewFile[]): void {
  for (const file of files) {
    const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: 'application/octet-stream' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
