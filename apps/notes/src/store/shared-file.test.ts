/**
 * Several stores on one notes file, as render replicas on one volume have them (here two stores
 * in one process; test/two-processes.test.ts does it across processes): no add is lost, each
 * sees the others' notes, a missing file is created once, and a stale lock is taken over.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseNotesFile } from '../domain/note.js';
import { openNotesStore, type NotesLog } from './notes-store.js';
import { ONE_NOTE } from '../../test/harness/one-note-file.js';
import { SEED_FILE, readSeedText } from './seed.js';

let directory: string;
let file: string;
let logged: string[];
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-shared-'));
  file = join(directory, 'notes.json');
  logged = [];
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const log: NotesLog = {
  info: (_details, message) => void logged.push(message),
  warn: (_details, message) => void logged.push(message),
};
const openFile = async () =>
  openNotesStore(
    { kind: 'file', path: file, seedText: await readSeedText(), seedName: SEED_FILE },
    { log },
  );
const onDisk = async () => parseNotesFile(await readFile(file, 'utf8'), file);
const addMany = (store: Awaited<ReturnType<typeof openFile>>, who: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, (_, i) => store.add({ author: who, text: `${who} ${i}` })),
  );

describe('two stores on one notes file', () => {
  it('adding at the same time, lose no note and never give one id twice', async () => {
    await writeFile(file, ONE_NOTE);
    const [first, second] = await Promise.all([openFile(), openFile()]);
    const added = (await Promise.all([addMany(first, 'A', 20), addMany(second, 'B', 20)])).flat();
    const saved = await onDisk();
    expect(saved).toHaveLength(41);
    expect(new Set(saved.map((note) => note.id)).size).toBe(41);
    // Every note each store answered with is in the file, under the id it answered.
    expect(saved).toEqual(expect.arrayContaining(added.map((a) => a.note)));
    expect((await first.list()).notes).toHaveLength(41);
    expect((await second.list()).notes).toHaveLength(41);
    expect(await readdir(directory)).toEqual(['notes.json']); // no lock or temporary file left
  });

  it('each sees a note the other added, without reopening', async () => {
    await writeFile(file, ONE_NOTE);
    const [first, second] = await Promise.all([openFile(), openFile()]);
    expect((await second.list()).notes).toHaveLength(1);
    const { note } = await first.add({ author: 'Grace', text: 'From the first' });
    expect((await second.get(note.id)).note).toEqual(note);
    expect((await second.list()).notes[0]).toEqual(note);
    const next = await second.add({ author: 'Ada', text: 'From the second' });
    expect(next.note.id).toBe(note.id + 1);
    expect((await first.list()).notes.map((n) => n.id)).toEqual([3, 2, 1]);
  });

  it('opening a missing file at the same time, create it from the seed once', async () => {
    const [first, second] = await Promise.all([openFile(), openFile()]);
    expect(await onDisk()).toEqual(parseNotesFile(await readSeedText(), SEED_FILE));
    expect(logged.filter((m) => m === 'notes: created NOTES_FILE from the seed')).toHaveLength(1);
    await first.add({ author: 'Grace', text: 'After the seed' });
    expect((await second.list()).notes).toHaveLength(4);
  });

  it('wait for a held lock, and take over one whose holder died', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    const lock = `${file}.lock`;
    await mkdir(lock);
    let done = false;
    const adding = store.add({ author: 'Grace', text: 'Waited' }).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    expect(await onDisk()).toHaveLength(1);
    // Its holder stopped refreshing it 30 s ago: stale, so it is taken over.
    const past = new Date(Date.now() - 30_000);
    await utimes(lock, past, past);
    await adding;
    expect((await onDisk()).map((n) => n.id)).toEqual([1, 2]);
    await expect(stat(lock)).rejects.toThrow(/ENOENT/);
  });
});

describe('a store whose file is broken while it runs', () => {
  it('serves the notes last read, reports itself unreadable, and refuses to write over it', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    await writeFile(file, '{"version":1,"notes":[');
    expect((await store.list()).notes.map((n) => n.id)).toEqual([1]);
    expect(await store.readable()).toBe(false);
    expect(logged).toContain('notes: cannot read NOTES_FILE; serving the notes last read');
    await expect(store.add({ author: 'Grace', text: 'Not now' })).rejects.toThrow(/not valid JSON/);
    expect(await readFile(file, 'utf8')).toBe('{"version":1,"notes":[');
    // Fixed by hand: read again, writable again.
    await writeFile(file, ONE_NOTE.replace('First', 'Fixed'));
    expect((await store.get(1)).note?.text).toBe('Fixed');
    expect(await store.readable()).toBe(true);
    await expect(store.add({ author: 'Grace', text: 'Now' })).resolves.toMatchObject({
      note: { id: 2 },
    });
  });
});
