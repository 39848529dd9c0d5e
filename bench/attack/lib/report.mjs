// The attack bench's report: goals first, then what each class got back.
import { nearestRank } from '../../kit/stats.mjs';

const percentile = (values, p) => nearestRank(values, p / 100);
const statuses = (byStatus) =>
  Object.entries(byStatus)
    .map(([status, n]) => `${status === '0' ? 'network error' : status}: ${n}`)
    .join(', ');
const mib = (value) => value.toFixed(0);

/** Markdown for one run of both phases. */
export function report({ baseline, attacked, duration, scale, root, splitCpus }) {
  const p99 = (phase) => percentile(phase.honest.latencies, 99);
  // An honest envelope the sender could not even send (the relay stalled) is not delivered.
  const intended = (phase) => phase.honest.sent + phase.honest.skipped;
  const share = (phase) => phase.honest.delivered / Math.max(1, intended(phase));
  const firstHalf = attacked.rss.windows.slice(0, Math.ceil(attacked.rss.windows.length / 2));
  const flat = attacked.rss.peak <= 1.1 * Math.max(...firstHalf);
  const rows = [
    [
      'relay peak RSS under attack',
      '< 256 MiB, flat',
      `${mib(attacked.rss.peak)} MiB (${flat ? 'flat' : 'still growing'})`,
      attacked.rss.peak < 256 && flat,
    ],
    [
      'honest envelopes delivered under attack',
      '100%',
      `${(100 * share(attacked)).toFixed(2)}% (${attacked.honest.delivered} of ${intended(attacked)})`,
      attacked.honest.delivered === intended(attacked),
    ],
    [
      'honest p99 latency, attack ÷ baseline',
      '≤ 2',
      `${(p99(attacked) / p99(baseline)).toFixed(2)} (${p99(attacked).toFixed(1)} ms ÷ ${p99(baseline).toFixed(1)} ms)`,
      p99(attacked) <= 2 * p99(baseline),
    ],
  ];
  const phaseRow = (phase) =>
    `| ${phase.label} | ${intended(phase)} | ${phase.honest.skipped} | ${statuses(phase.honest.byStatus)} | ${phase.honest.delivered} | ${percentile(phase.honest.latencies, 50).toFixed(1)} | ${p99(phase).toFixed(1)} | ${phase.cores.toFixed(2)} | ${phase.loopDelay.p99.toFixed(0)} / ${phase.loopDelay.max.toFixed(0)} | ${mib(phase.rss.peak)} | ${phase.rss.windows.map(mib).join(' / ')} | ${phase.answersAfter} |`;
  return [
    `Relay under attack: ${duration} s per phase, scale ${scale}, relay of ${root}; ${splitCpus ? 'the attack generator at nice 15 on CPU 0, everything else on every CPU at normal priority' : 'every process on every CPU at normal priority'}.`,
    '',
    '| goal | target | measured | result |',
    '|---|---|---|---|',
    ...rows.map(
      ([goal, target, measured, ok]) =>
        `| ${goal} | ${target} | ${measured} | ${ok ? 'PASS' : '**FAIL**'} |`,
    ),
    '',
    '| phase | honest envelopes | not sent (64 in flight already) | honest answers | delivered upstream | p50 ms | p99 ms | relay cores | relay loop delay p99 / max ms | peak RSS MiB | RSS per 10 s (MiB) | answers after |',
    '|---|---:|---:|---|---:|---:|---:|---:|---|---:|---|---:|',
    phaseRow(baseline),
    phaseRow(attacked),
    '',
    '| hostile class | sent | skipped (16 in flight already) | answers |',
    '|---|---:|---:|---|',
    ...Object.entries(attacked.hostile).map(
      ([name, c]) => `| ${name} | ${c.sent} | ${c.skipped} | ${statuses(c.byStatus)} |`,
    ),
    attacked.trickle
      ? `| trickling bodies (${attacked.trickle.opened} opened) | – | – | cut by the relay: ${attacked.trickle.cutByRelay} |`
      : '',
    '',
  ].join('\n');
}
