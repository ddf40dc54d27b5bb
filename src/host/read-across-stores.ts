/**
 * The stored-result tool reads from the host's own store of cut results and, for an id it does not hold, from the
 * stores of conversations' compacted tool results (kept with their saved sessions, so a resumed session's
 * references still read).
 */
import { type ResultStore, ResultStoreError } from '../content/result-store.js';

export function readAcrossStores(primary: ResultStore, others: () => readonly ResultStore[]): ResultStore {
  return {
    get directory() {
      return primary.directory;
    },
    get storedBytes() {
      return primary.storedBytes;
    },
    save: (text) => primary.save(text),
    startSave: (text) => primary.startSave(text),
    startStream: () => primary.startStream(),
    flush: () => primary.flush(),
    close: () => primary.close(),
    pathOf: (id) => primary.pathOf(id),
    // Only `tools call` reads a whole text, and only the host's own.
    readWhole: (id) => primary.readWhole(id),
    async read(id, offset, length) {
      try {
        return await primary.read(id, offset, length);
      } catch (error) {
        if (!(error instanceof ResultStoreError) || error.code !== 'unknown-id') throw error;
        for (const store of others()) {
          try {
            return await store.read(id, offset, length);
          } catch (other) {
            if (!(other instanceof ResultStoreError) || other.code !== 'unknown-id') throw other;
          }
        }
        throw error;
      }
    },
  };
}
