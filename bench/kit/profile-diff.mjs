// Two profile summaries (profile-summary.mjs) of the same load side by side: each row's main-thread
// milliseconds per request on A and on B and the difference, largest difference first, so the
// place a build got slower or faster is read off one table. Pure.

const VIEWS = [
  ['groups', 'group (self time)'],
  ['attributed', 'charged to the nearest owning caller'],
  ['inclusive', 'inclusive time of'],
  ['functions', 'function (self time)'],
];

const rowName = (row) => (row.file ? `\`${row.name}\` ${row.file}` : row.name);

/**
 * Rows of one view (`groups`, `attributed`, `inclusive` or `functions`) present on either side:
 * `{ name, a, b, delta }` per request, sorted by the size of `delta`. A side is
 * `{ summary, requests }`; a row missing on one side counts 0 there. `measure` is the row field
 * compared: `ms` for CPU profiles, `bytes` for allocation profiles (allocation-summary.mjs).
 */
export function diffRows(a, b, view, measure = 'ms') {
  const rows = new Map();
  for (const [side, { summary, requests }] of [
    ['a', a],
    ['b', b],
  ])
    for (const row of summary[view] ?? []) {
      const name = rowName(row);
      const entry = rows.get(name) ?? { name, a: 0, b: 0 };
      entry[side] += row[measure] / requests;
      rows.set(name, entry);
    }
  return [...rows.values()]
    .map((row) => ({ ...row, delta: row.b - row.a }))
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta));
}

const ms = (value) => value.toFixed(4);
const signed = (value) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;

/** Markdown: busy time per request on each side, then each view's `top` largest differences. */
export function profileDiffMarkdown(title, a, b, { top = 15 } = {}) {
  const busy = (side) => side.summary.busyMs / side.requests;
  const lines = [
    `### ${title}`,
    '',
    `Main thread busy per request: A ${ms(busy(a))} ms, B ${ms(busy(b))} ms (B − A ${signed(busy(b) - busy(a))} ms; ` +
      `${a.requests} and ${b.requests} requests profiled).`,
    '',
  ];
  for (const [view, heading] of VIEWS) {
    const rows = diffRows(a, b, view).slice(0, top);
    if (rows.length === 0) continue;
    lines.push(
      `| ${heading} | A ms/req | B ms/req | B − A |`,
      '|---|---:|---:|---:|',
      ...rows.map((row) => `| ${row.name} | ${ms(row.a)} | ${ms(row.b)} | ${signed(row.delta)} |`),
      '',
    );
  }
  return lines.join('\n');
}
