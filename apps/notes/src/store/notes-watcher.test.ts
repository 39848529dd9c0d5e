/**
 * The notes file's change feed on real files: what another store or a hand edit changes is
 * reported by tag, from the directory watch (the poll here is too slow to be what answers).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseNotesFile, serializeNotes, type Note } from '../domain/note.js';
import { openNotesStore } from './notes-store.js';
import { watchNotesFile } from './notes-watcher.js';

const note = (id: number, text = `Note ${id}`): Note => ({
  id,
  author: 'Ada',
  text,
  createdAt: '2025-01-01T00:00:00.000Z',
});
const TWO_NOTES = serializeNotes([note(1), note(2)]);

let directory: string;
let file: string;
let reports: string[][];
let resets: number;
let stop: () => void;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-watch-'));
  file = join(directory, 'notes.json');
  await writeFile(file, TWO_NOTES);
  reports = [];
  resets = 0;
  stop = () => undefined;
});
afterEach(async () => {
  stop();
  await rm(directory, { recursive: true, force: true });
});

/** Watches `file` from the list it holds now, with a poll too slow to matter. */
function watch(baseline: readonly Note[] = parseNotesFile(TWO_NOTES, file)) {
  const watcher = watchNotesFile(
    file,
    {
      onTags: async (tags) => void reports.push([...tags]),
      onReset: async () => void resets++,
    },
    { baseline, log: { warn: () => undefined }, debounceMs: 20, pollMs: 60_000 },
  );
  stop = () => watcher.stop();
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
const reported = () => reports.flat();

describe('the notes file watcher', () => {
  it('reports the list and the new note when another store adds one', async () => {
    watch();
    await settle();
    const other = await openNotesStore({ kind: 'file', path: file });
    const { note: added } = await other.add({ author: 'Grace', text: 'From elsewhere' });
    await vi.waitFor(() => expect(reports).toEqual([['notes', `note:${added.id}`]]));
    expect(resets).toBe(0);
  });

  it('reports notes edited and removed by hand, and nothing for a rewrite that changes nothing', async () => {
    watch();
    await writeFile(file, TWO_NOTES); // same notes, new mtime
    await settle();
    expect(reports).toEqual([]);
    await writeFile(file, serializeNotes([note(2, 'Edited'), note(5)]));
    await vi.waitFor(() => expect(reports).toEqual([['notes', 'note:1', 'note:2', 'note:5']]));
  });

  it('gathers a burst of writes into few reports that name every note', async () => {
    watch();
    const notes = [note(1), note(2)];
    // Ten quick rewrites, each with one more note (a debounce window holds several).
    for (let id = 3; id <= 12; id++) {
      notes.push(note(id));
      await writeFile(file, serializeNotes(notes));
    }
    const expected = Array.from({ length: 10 }, (_, i) => `note:${i + 3}`);
    await vi.waitFor(() => expect(reported()).toEqual(expect.arrayContaining(expected)));
    expect(reports.length).toBeLessThan(10);
  });

  it('reports what changed since its baseline, and a reset after versions it could not read', async () => {
    watch([note(1)]); // this process served one note; the file has two
    await vi.waitFor(() => expect(reports).toEqual([['notes', 'note:2']]));
    await writeFile(file, '{"version":1,"notes":[');
    await settle();
    expect(reports).toHaveLength(1);
    // Whatever was served meanwhile (by a process that read a version this one did not) goes.
    await writeFile(file, serializeNotes([note(1), note(2), note(3)]));
    await vi.waitFor(() => expect(resets).toBe(1));
    expect(reports).toHaveLength(1);
    await writeFile(file, serializeNotes([note(1), note(2), note(3), note(4)]));
    await vi.waitFor(() =>
      expect(reports).toEqual([
        ['notes', 'note:2'],
        ['notes', 'note:4'],
      ]),
    );
  });

  it('makes a report that failed again at the next look', async () => {
    let failures = 1;
    const watcher = watchNotesFile(
      file,
      {
        onTags: async (tags) => {
          if (failures-- > 0) throw new Error('the cache is unreachable');
          reports.push([...tags]);
        },
        onReset: async () => void resets++,
      },
      { baseline: [note(1)], log: { warn: () => undefined }, debounceMs: 20, pollMs: 100 },
    );
    stop = () => watcher.stop();
    await vi.waitFor(() => expect(reports).toEqual([['notes', 'note:2']]));
  });

  it('reports nothing once stopped', async () => {
    watch();
    stop();
    await writeFile(file, serializeNotes([note(1)]));
    await settle();
    expect(reports).toEqual([]);
  });
});
