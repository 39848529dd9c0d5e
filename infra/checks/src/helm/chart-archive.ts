/**
 * The files of a packaged chart (`helm package`'s .tgz): what a chart repository would serve,
 * so what an install from it can read with .Files. A gzip'd tar read with fflate; helm writes
 * plain ustar entries (regular files, names under 100 characters with the ustar prefix for
 * longer ones), which is all this reads.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'fflate';

const BLOCK = 512;
const REGULAR_FILE = new Set(['0', '\0']);

function text(header: Uint8Array, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return new TextDecoder().decode(end < 0 ? field : field.subarray(0, end));
}

/** Path in the archive (e.g. `strata/files/nginx.conf`) → content, regular files only. */
export async function chartArchiveFiles(archive: string): Promise<Map<string, Buffer>> {
  const tar = gunzipSync(new Uint8Array(await readFile(archive)));
  const files = new Map<string, Buffer>();
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    const name = text(header, 0, 100);
    if (name === '') break; // the two zero blocks that end the archive
    const size = Number.parseInt(text(header, 124, 12).trim() || '0', 8);
    const prefix = text(header, 345, 155);
    const type = String.fromCharCode(header[156] ?? 0);
    const start = offset + BLOCK;
    if (REGULAR_FILE.has(type))
      files.set(
        prefix ? `${prefix}/${name}` : name,
        Buffer.from(tar.subarray(start, start + size)),
      );
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
