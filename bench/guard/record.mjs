// Appends a guard run's row to bench/GUARD.md (only with --record).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { guardRow } from '../kit/report.mjs';

export function recordGuardRun(repo, { command, baseline, tree, lines, now = new Date() }) {
  const date = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const row = guardRow({ date, command, baseline, tree, lines });
  appendFileSync(join(repo, 'bench/GUARD.md'), `${row}\n`);
}
