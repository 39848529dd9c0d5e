import { mkdtemp, open, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFileError, parseNotesFile } from '../domain/note.js';
import { writeFileAtomically } from './atomic-file.js';
import { openNotesStore } from './notes-store.js';
import { ONE_NOTE } from '../../test/harness/one-note-file.js';
import { SEED_FILE, readSeedText } from './seed.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

let directory: string;
let file: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-store-'));
  file = join(directory, 'notes.json');
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const openFile = () => openNotesStore({ kind: 'file', path: file }, { now: () => NOW });
const onDisk = async () => parseNotesFile(await readFile(file, 'utf8'), file);

describe('a file store', () => {
  it('reads the file, writes each added note to it, and returns the tags it changed', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    expect((await store.list()).notes.map((n) => n.id)).toEqual([1]);
    const added = await store.add({ author: 'Grace', text: 'Second' });
    expect(added).toEqual({
      note: { id: 2, author: 'Grace', text: 'Second', createdAt: NOW.toISOString() },
      tags: ['notes', 'note:2'],
    });
    expect(await onDisk()).toEqual([
      { id: 1, author: 'Ada', text: 'First', createdAt: '2025-01-01T00:00:00.000Z' },
      added.note,
    ]);
    // A second store on the same file (a restart) sees the note.
    const reopened = await openFile();
    expect((await reopened.get(2)).note).toEqual(added.note);
  });

  it('answers reads with the tags loaders should name', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    expect((await store.list()).tags).toEqual(['notes']);
    expect(await store.get(1)).toMatchObject({ note: { id: 1 }, tags: ['note:1'] });
    expect(await store.get(9)).toEqual({ note: undefined, tags: ['note:9'] });
  });

  it('serialises concurrent adds: distinct ids, and every note reaches the file', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    const added = await Promise.all(
      Array.from({ length: 25 }, (_, i) => store.add({ author: `Writer ${i}`, text: `Note ${i}` })),
    );
    expect(added.map((a) => a.note.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));
    const saved = await onDisk();
    expect(saved).toHaveLength(26);
    expect(new Set(saved.map((n) => n.id)).size).toBe(26);
    expect(await readdir(directory)).toEqual(['notes.json']); // no temporary file left behind
  });

  it('replaces the file by rename: a reader holding the old file still reads it whole', async () => {
    await writeFile(file, ONE_NOTE);
    const before = await stat(file);
    const reader = await open(file, 'r');
    try {
      const store = await openFile();
      await store.add({ author: 'Grace', text: 'Second' });
      // An in-place rewrite would have truncated the file under the open handle.
      expect(await reader.readFile('utf8')).toBe(ONE_NOTE);
      expect((await stat(file)).ino).not.toBe(before.ino);
      expect(await onDisk()).toHaveLength(2);
    } finally {
      await reader.close();
    }
  });

  it('serves the list last read when the file goes, and writes it back with the next note', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    await rm(directory, { recursive: true });
    await expect(store.add({ author: 'Lost', text: 'Nowhere to go' })).rejects.toThrow(/ENOENT/);
    expect((await store.list()).notes.map((n) => n.id)).toEqual([1]);
    expect(await store.readable()).toBe(false);
    await mkdir(directory);
    const next = await store.add({ author: 'Grace', text: 'Second' });
    expect(next.note.id).toBe(2);
    expect((await onDisk()).map((n) => n.id)).toEqual([1, 2]);
    expect(await store.readable()).toBe(true);
  });

  it.each([
    ['is empty', '', /not valid JSON/],
    ['is cut short', ONE_NOTE.slice(0, 40), /not valid JSON/],
    ['holds another shape', '{"notes":{}}', /version: .*\n.*notes: /],
  ])('refuses to start when the file %s, saying why', async (_name, text, reason) => {
    await writeFile(file, text);
    const opening = openFile();
    await expect(opening).rejects.toBeInstanceOf(NotesFileError);
    await expect(opening).rejects.toThrow(`Cannot use the notes file ${file}:`);
    await expect(opening).rejects.toThrow(reason);
    expect(await readFile(file, 'utf8')).toBe(text); // and leaves it as it was
  });

  it('creates a missing file from the seed (its own format), and refuses a missing directory', async () => {
    const seed = await readSeedText();
    const store = await openNotesStore(
      { kind: 'file', path: file, seedText: seed, seedName: SEED_FILE },
      { now: () => NOW },
    );
    expect(await onDisk()).toEqual(parseNotesFile(seed, SEED_FILE));
    expect((await store.list()).notes).toHaveLength(3);
    expect(await readdir(directory)).toEqual(['notes.json']); // no lock or temporary file left
    const elsewhere = join(directory, 'no-such-directory', 'notes.json');
    await expect(
      openNotesStore({ kind: 'file', path: elsewhere, seedText: seed, seedName: SEED_FILE }),
    ).rejects.toThrow(
      /notes\.json:\n {2}- does not exist, nor does its directory .*no-such-directory/,
    );
  });

  it('refuses to create the file from a malformed seed, and writes nothing', async () => {
    const opening = openNotesStore({ kind: 'file', path: file, seedText: '{}', seedName: 'seed' });
    await expect(opening).rejects.toThrow(/Cannot use the notes file seed:/);
    await expect(readdir(directory)).resolves.toEqual([]);
  });

  it('waits for queued writes on close, then refuses new ones', async () => {
    await writeFile(file, ONE_NOTE);
    const store = await openFile();
    const pending = store.add({ author: 'Grace', text: 'Just in time' });
    await store.close();
    expect((await onDisk()).map((n) => n.id)).toEqual([1, 2]);
    await expect(pending).resolves.toMatchObject({ note: { id: 2 } });
    await expect(store.add({ author: 'Late', text: 'Too late' })).rejects.toThrow(/closed/);
  });
});

describe('a memory store', () => {
  it('starts from the shipped seed and never writes a file', async () => {
    const seed = await readSeedText();
    const store = await openNotesStore({ kind: 'memory', seedText: seed, seedName: SEED_FILE });
    expect(store.storage).toBe('memory');
    const seeded = (await store.list()).notes;
    expect(seeded.length).toBeGreaterThan(0);
    const added = await store.add({ author: 'Grace', text: 'Only in memory' });
    expect(added.tags).toEqual(['notes', `note:${added.note.id}`]);
    expect((await store.list()).notes[0]).toEqual(added.note);
    expect(await readSeedText()).toBe(seed);
    expect(await store.readable()).toBe(true);
  });

  it('refuses a malformed seed too', async () => {
    await expect(
      openNotesStore({ kind: 'memory', seedText: '{}', seedName: 'the seed' }),
    ).rejects.toThrow(/Cannot use the notes file the seed:/);
  });
});

describe('writeFileAtomically', () => {
  it('creates the file when there is none, and removes its temporary file on failure', async () => {
    await writeFileAtomically(file, 'one');
    expect(await readFile(file, 'utf8')).toBe('one');
    // Renaming a file over a directory fails after the temporary file was written.
    const target = join(directory, 'a-directory');
    await mkdir(join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomically(target, 'two')).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect((await readdir(directory)).sort()).toEqual(['a-directory', 'notes.json']);
  });
});
