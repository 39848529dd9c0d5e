// Appends a guard run's row to bench/GUARD.md (only with --record).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { guardRow } from '../kit/report.mjs';

export function recordGuardRun(repo, { command, baseline, lines, now = new Date() }) {
  const date = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  appendFileSync(join(repo, 'bench/GUARD.md'), `${guardRow({ date, command, baseline, lines })}\n`);
}
