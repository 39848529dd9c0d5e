import { describe, expect, it } from 'vitest';
import { microMarkdown, microRows } from './micro-table.mjs';

const batch = (cpuMs, bytes = 100) => ({ wallMs: cpuMs * 0.9, cpuMs, bytes });

describe('microRows', () => {
  it('takes each variant’s median batch and divides it by the anchors’ tree', () => {
    const rows = microRows(
      new Map([
        ['strata renderDocument', [batch(0.3), batch(0.5), batch(0.36)]],
        ['anchors itemsDocument', [batch(0.4), batch(0.2), batch(0.3)]],
      ]),
    );
    expect(rows.map((r) => [r.name, r.cpuMs, r.perReference])).toEqual([
      ['strata renderDocument', 0.36, 0.36 / 0.3],
      ['anchors itemsDocument', 0.3, 1],
    ]);
    expect(rows[0].perBatch).toEqual([0.3, 0.5, 0.36]);
  });

  it('has no ratio when the anchors’ tree was left out of the run', () => {
    const [row] = microRows(new Map([['JSON only', [batch(0.02)]]]));
    expect(row.perReference).toBeNaN();
  });
});

describe('microMarkdown', () => {
  it('writes one row per variant under the heading', () => {
    const rows = microRows(new Map([['anchors itemsDocument', [batch(0.25, 26281)]]]));
    const md = microMarkdown('One run.', rows);
    expect(md.split('\n')[0]).toBe('One run.');
    expect(md).toContain('| anchors itemsDocument | 0.225 | 0.250 | 1.00 | 26,281 | 0.250 |');
  });
});
