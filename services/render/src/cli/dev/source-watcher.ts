/**
 * Watches an app's src/ (every file, new ones too: Node's recursive fs.watch) and calls back once
 * per burst of changes, as editors write a file in several steps.
 */
import { watch, type FSWatcher } from 'node:fs';

const SETTLE_MS = 40;

export function watchSources(directory: string, onChange: (files: string[]) => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  return watch(directory, { recursive: true }, (_event, file) => {
    if (file) changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, SETTLE_MS);
  });
}
