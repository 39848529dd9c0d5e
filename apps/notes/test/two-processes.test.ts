/**
 * Render replicas are separate processes: the notes file's lock must hold across them, not only
 * between two stores of one process. Real Node processes (test/harness/note-writer.ts) and this
 * one add notes to one file at the same moment; none may be lost or share an id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseNotesFile, serializeNotes } from '../src/domain/note.js';
import { openNotesStore } from '../src/store/notes-store.js';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const PER_PROCESS = 15;

let directory: string;
let file: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-processes-'));
  file = join(directory, 'notes.json');
  await writeFile(file, serializeNotes([]));
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(directory, { recursive: true, force: true });
});

/** A writer process; `lines` yields what it prints, line by line. */
function startWriter(author: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/harness/note-writer.ts', file, author, String(PER_PROCESS)],
    { cwd: appDir, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`${author} exited early (${child.exitCode})`);
    return line.value;
  };
  return { child, next };
}

it('adds from several processes at once and loses no note', async () => {
  const writers = ['first', 'second'].map(startWriter);
  for (const writer of writers) expect(await writer.next()).toBe('ready');
  const store = await openNotesStore({ kind: 'file', path: file });
  // Go: both children and this process write at the same moment.
  for (const writer of writers) writer.child.stdin!.write('go\n');
  const own = await Promise.all(
    Array.from({ length: PER_PROCESS }, (_, i) => store.add({ author: 'parent', text: `p ${i}` })),
  );
  const theirs = await Promise.all(
    writers.map(async (writer) => JSON.parse(await writer.next()) as number[]),
  );
  const saved = parseNotesFile(await readFile(file, 'utf8'), file);
  const ids = [...own.map((a) => a.note.id), ...theirs.flat()].sort((a, b) => a - b);
  // Every id handed out is distinct and in the file: 1 … 45, no gap, nothing written over.
  expect(ids).toEqual(Array.from({ length: 3 * PER_PROCESS }, (_, i) => i + 1));
  expect(saved.map((note) => note.id)).toEqual(ids);
  expect(new Set(saved.map((note) => note.author))).toEqual(new Set(['first', 'second', 'parent']));
  // This process sees the children's notes too.
  expect((await store.list()).notes).toHaveLength(3 * PER_PROCESS);
  expect(await readdir(directory)).toEqual(['notes.json']);
}, 30_000);
