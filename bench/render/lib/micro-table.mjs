// micro.mjs's summary: each variant's median per-render cost over its batches and its ratio to
// the anchors' element tree, as rows and as the markdown table. Pure.
import { median } from '../../kit/stats.mjs';

const REFERENCE = 'anchors itemsDocument';

/** `results`: variant name → its batches (`{ wallMs, cpuMs, bytes }`), in the table's order. */
export function microRows(results) {
  const reference = results.get(REFERENCE);
  const base = reference ? median(reference.map((r) => r.cpuMs)) : NaN;
  return [...results].map(([name, batches]) => {
    const cpuMs = median(batches.map((r) => r.cpuMs));
    return {
      name,
      wallMs: median(batches.map((r) => r.wallMs)),
      cpuMs,
      perReference: cpuMs / base,
      bytes: batches[0].bytes,
      perBatch: batches.map((r) => r.cpuMs),
    };
  });
}

/** The rows as markdown under `heading` (the run's settings). */
export function microMarkdown(heading, rows) {
  return [
    heading,
    '',
    `| variant | ms/render (wall) | ms/render (CPU) | ÷ ${REFERENCE} (CPU) | bytes | CPU ms per batch |`,
    '|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.wallMs.toFixed(3)} | ${r.cpuMs.toFixed(3)} | ${r.perReference.toFixed(2)} | ${r.bytes.toLocaleString('en-US')} | ${r.perBatch.map((x) => x.toFixed(3)).join(' / ')} |`,
    ),
    '',
  ].join('\n');
}
