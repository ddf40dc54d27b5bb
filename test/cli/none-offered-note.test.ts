import { describe, expect, it } from 'vitest';
import { noneOfferedNote } from '../../src/cli/none-offered-note.js';
import type { HostServerStatus } from '../../src/host/host-types.js';

const server = (name: string, state: HostServerStatus['state']) => ({ name, state }) as HostServerStatus;

describe('noneOfferedNote', () => {
  it('names the connected servers that were asked', () => {
    expect(noneOfferedNote('resources', [server('calc', 'connected'), server('inv', 'connected')])).toBe(
      'none of the 2 connected servers ("calc", "inv") offers resources',
    );
    expect(noneOfferedNote('prompts', [server('calc', 'connected'), server('down', 'failed')])).toBe(
      'the server "calc" offers no prompts',
    );
  });

  it('says nothing when no server is connected (the command said why already)', () => {
    expect(noneOfferedNote('prompts', [server('down', 'failed')])).toBeUndefined();
    expect(noneOfferedNote('resources', [])).toBeUndefined();
  });

  it('shows a name with control characters escaped', () => {
    expect(noneOfferedNote('prompts', [server('a\u001b[2Jb', 'connected')])).toBe(
      'the server "a\\u001b[2Jb" offers no prompts',
    );
  });
});
