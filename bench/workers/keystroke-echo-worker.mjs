/**
 * Worker of benchmark 8: the chat's line editor (node:readline on a terminal, with the chat's completer and output)
 * fed one key at a time through a stream that stands for the terminal; each sample is the time from the key written
 * to its echo reaching the terminal's output. Prints the samples (ms) as JSON on stdout.
 */
import { PassThrough, Writable } from 'node:stream';
import { createChatInput } from '../../dist/src/cli/chat/chat-input.js';
import { createChatOutput } from '../../dist/src/cli/chat/chat-output.js';

const keys = Number(process.argv[2] ?? 500);
const input = new PassThrough();
input.isTTY = true;
input.setRawMode = () => input;
let waiting;
const terminal = new Writable({
  write(chunk, _encoding, callback) {
    const text = chunk.toString();
    if (waiting && text.includes(waiting.key)) {
      const done = waiting;
      waiting = undefined;
      done.resolve(performance.now() - done.started);
    }
    callback();
  },
});
terminal.isTTY = true;
terminal.columns = 120;
const output = createChatOutput({ stream: terminal, env: {} });
const chat = createChatInput({ input, output, terminal, complete: async (line) => [[], line] });
void chat.read('> ');
const samples = [];
for (let index = 0; index < keys; index += 1) {
  const key = String.fromCharCode(97 + (index % 26));
  const echoed = new Promise((resolve) => {
    waiting = { key, started: performance.now(), resolve };
  });
  input.write(key);
  samples.push(await echoed);
  // A line of text every 60 keys, as someone typing would press Enter.
  if (index % 60 === 59) input.write('\r');
}
chat.close();
process.stdout.write(`${JSON.stringify(samples)}\n`);
