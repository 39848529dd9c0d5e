/**
 * A second process for test/two-processes.test.ts: opens a store on the notes file it is given,
 * says "ready", waits for a line on stdin (so every process starts writing at once), adds its
 * notes, and prints the ids it was given as JSON.
 *   node --import tsx test/harness/note-writer.ts <file> <author> <count>
 */
import { once } from 'node:events';
import { openNotesStore } from '../../src/store/notes-store.js';

const [file = '', author = 'child', count = '1'] = process.argv.slice(2);
const store = await openNotesStore({ kind: 'file', path: file });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const added = await Promise.all(
  Array.from({ length: Number(count) }, (_, i) => store.add({ author, text: `${author} ${i}` })),
);
await store.close();
process.stdout.write(`${JSON.stringify(added.map((a) => a.note.id))}\n`);
process.stdin.destroy();
