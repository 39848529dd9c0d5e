/**
 * Replaces a file's contents all at once: readers see the old text or the new, never a torn
 * mix, and a crash mid-write leaves the old file in place.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Writes `text` to a temporary file beside `path`, flushes it to disk, then renames it over. */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  // Beside the target: a rename is only atomic within one file system.
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      // On disk before the rename, or a power cut could leave the new name on an empty file.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
