/**
 * A key written twice in one object. JSON readers keep the last one without a word, so a file can show a reviewer
 * one `command` and run another; the config is refused instead, naming both places.
 */

import { visit } from 'jsonc-parser';
import type { KeyPathSegment } from './key-path.js';

interface Place {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

interface DuplicateKey {
  /** The object holding the key twice. */
  objectPath: KeyPathSegment[];
  key: string;
  first: Place;
  second: Place;
}

/**
 * The first key written twice in one object of strict JSON `text`, among those `isRead` accepts (by the path of the
 * object and the key). An editor's settings file is read only in its servers section: its other settings are not ours.
 */
export function findDuplicateKey(
  text: string,
  isRead: (objectPath: ReadonlyArray<KeyPathSegment>, key: string) => boolean = () => true,
): DuplicateKey | undefined {
  // One map per open object (keys to where they were first written); `undefined` for an open array.
  const open: Array<Map<string, Place> | undefined> = [];
  let found: DuplicateKey | undefined;
  visit(text, {
    onObjectBegin: () => {
      open.push(new Map());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onArrayBegin: () => {
      open.push(undefined);
    },
    onArrayEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, _offset, _length, startLine, startCharacter, pathSupplier) => {
      const keys = open[open.length - 1];
      if (keys === undefined || found !== undefined) return;
      const place = { line: startLine + 1, column: startCharacter + 1 };
      const first = keys.get(key);
      if (first === undefined) {
        keys.set(key, place);
        return;
      }
      const objectPath = pathSupplier();
      if (isRead(objectPath, key)) found = { objectPath, key, first, second: place };
    },
  });
  return found;
}
