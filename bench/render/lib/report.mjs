#!/usr/bin/env node
// The render benchmark's goal table from one run's OUT folder (results.json from the anchors' driver,
// data-cpu.json from drive.mjs). Writes OUT/goals.md and OUT/goals.json.
// Usage: node bench/render/lib/report.mjs <OUT>
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median as medianOf } from '../../kit/stats.mjs';

// Rounds without a figure are left out; null when no round has one.
const median = (xs) => {
  const v = xs.filter(Number.isFinite);
  return v.length ? medianOf(v) : null;
};
const fmt = (x, d = 2) =>
  x === null || x === undefined || !Number.isFinite(x)
    ? '–'
    : x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** Per-round ratios a/b of metric f, and their median (the driver's method). */
function perRound(records, rounds, a, b, f) {
  const out = [];
  for (let round = 1; round <= rounds; round++) {
    const ra = records.find(
      (r) => `${r.target}/${r.kind}` === a && r.round === round && !r.sizeOnly,
    );
    const rb = records.find(
      (r) => `${r.target}/${r.kind}` === b && r.round === round && !r.sizeOnly,
    );
    if (!ra || !rb) continue;
    const x = f(ra);
    const y = f(rb);
    out.push(x && y ? x / y : null);
  }
  return { perRound: out, median: median(out) };
}

export function computeGoals(results, dataCpu) {
  const rounds = results.config.ROUNDS;
  const records = results.records;
  const windows = dataCpu?.windows ?? [];
  const dataMs = (r) =>
    windows.find((w) => w.target === r.target && w.kind === r.kind && w.round === r.round)
      ?.dataCpuMsPerReq ?? null;
  const withData = (r) =>
    r.target === 'candidate' ? r.serverCpuMsPerReq + (dataMs(r) ?? NaN) : r.serverCpuMsPerReq;
  const row = (key) => results.medians?.find((m) => m.key === key);
  const bytes = (key) => row(key)?.bodyBytes ?? null;

  const goals = [
    {
      goal: 'req/s, candidate html ÷ next html',
      target: '≥ 6',
      ...perRound(records, rounds, 'candidate/html', 'next/html', (r) => r.reqPerSec),
      pass: (v) => v >= 6,
    },
    {
      goal: 'CPU ms/req, candidate html ÷ fastify-react html (render service only)',
      target: '≤ 1.5',
      ...perRound(
        records,
        rounds,
        'candidate/html',
        'fastify-react/html',
        (r) => r.serverCpuMsPerReq,
      ),
      pass: (v) => v <= 1.5,
    },
    {
      goal: 'CPU ms/req, candidate html ÷ fastify-react html (render + data service)',
      target: '≤ 1.5',
      ...perRound(records, rounds, 'candidate/html', 'fastify-react/html', withData),
      pass: (v) => v <= 1.5,
    },
    {
      goal: 'HTML body bytes, candidate html ÷ next html',
      target: '≤ 0.7',
      perRound: [],
      median:
        bytes('candidate/html') && bytes('next/html')
          ? bytes('candidate/html') / bytes('next/html')
          : null,
      pass: (v) => v <= 0.7,
    },
    {
      goal: 'navigation payload bytes, candidate nav ÷ next rsc-nav',
      target: '≤ 0.7',
      perRound: [],
      median:
        bytes('candidate/nav') && bytes('next/rsc-nav')
          ? bytes('candidate/nav') / bytes('next/rsc-nav')
          : null,
      pass: (v) => v <= 0.7,
    },
  ].map((g) => ({ ...g, pass: g.median === null ? null : g.pass(g.median) }));

  const cand = (kind) =>
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
      .slice(0, rounds)
      .map((round) =>
        records.find((r) => r.target === 'candidate' && r.kind === kind && r.round === round),
      )
      .filter(Boolean);
  const cpuRows = ['html', 'nav'].map((kind) => {
    const rs = cand(kind);
    return {
      kind,
      renderMsPerReq: median(rs.map((r) => r.serverCpuMsPerReq)),
      dataMsPerReq: median(rs.map(dataMs)),
      totalMsPerReq: median(rs.map(withData)),
      dataPerRound: rs.map(dataMs),
      dataCores: median(
        windows.filter((w) => w.target === 'candidate' && w.kind === kind).map((w) => w.dataCores),
      ),
    };
  });
  const candidateWindows = windows.filter((w) => w.target === 'candidate');
  // Every uncached candidate request makes at least one data call; a cache in front would leave
  // the calls the data service served (drive.mjs counts them from its metrics) short of the
  // requests. A count, so it holds however cheap a call gets.
  const candidateRequests = candidateWindows.reduce((sum, w) => sum + (w.requests ?? 0), 0);
  const callsServed = dataCpu?.callsServed ?? null;
  const uncached =
    callsServed === null || !candidateWindows.length ? null : callsServed >= candidateRequests;
  const idle = windows.filter((w) => w.target !== 'candidate');
  const idleCores = median(idle.map((w) => w.dataCores));
  return {
    goals,
    cpuRows,
    idleCores,
    callsServed,
    candidateRequests,
    uncached,
    bytes: {
      html: bytes('candidate/html'),
      nextHtml: bytes('next/html'),
      nav: bytes('candidate/nav'),
      nextNav: bytes('next/rsc-nav'),
    },
  };
}

export function goalsMarkdown({
  goals,
  cpuRows,
  idleCores,
  callsServed,
  candidateRequests,
  uncached,
  bytes,
}) {
  const verdict = (p) => (p === null ? 'n/a' : p ? '**PASS**' : '**FAIL**');
  const lines = [
    '| goal | target | median | per round | result |',
    '|---|---:|---:|---|---|',
    ...goals.map(
      (g) =>
        `| ${g.goal} | ${g.target} | ${fmt(g.median)} | ${g.perRound.length ? g.perRound.map((x) => fmt(x)).join(' / ') : 'fixed size'} | ${verdict(g.pass)} |`,
    ),
    '',
    `Bytes: candidate html ${fmt(bytes.html, 0)} vs next html ${fmt(bytes.nextHtml, 0)}; candidate nav ${fmt(bytes.nav, 0)} vs next rsc-nav ${fmt(bytes.nextNav, 0)}.`,
    '',
    '| candidate request | render CPU ms/req (driver) | data service CPU ms/req | render + data CPU ms/req | data service cores while loaded | data ms/req per round |',
    '|---|---:|---:|---:|---:|---|',
    ...cpuRows.map(
      (r) =>
        `| ${r.kind} | ${fmt(r.renderMsPerReq)} | ${fmt(r.dataMsPerReq)} | ${fmt(r.totalMsPerReq)} | ${fmt(r.dataCores)} | ${r.dataPerRound.map((x) => fmt(x)).join(' / ')} |`,
    ),
    '',
    `Data service background while the other servers were measured (idle; median over their windows): ${fmt(idleCores, 3)} cores.`,
    '',
    uncached === null
      ? 'No candidate windows or no call count: the cache check did not run.'
      : uncached
        ? `Cache check: the data service served ${fmt(callsServed, 0)} calls during the run for ${fmt(candidateRequests, 0)} measured candidate requests, so every request reached it (no cache in front).`
        : `**Cache check FAILED**: the data service served only ${fmt(callsServed, 0)} calls for ${fmt(candidateRequests, 0)} measured candidate requests; something answered without it (is a segment cache on?). These figures are not the uncached service.`,
    '',
  ];
  return lines.join('\n');
}

export function writeReport(out) {
  const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  const dataPath = path.join(out, 'data-cpu.json');
  const dataCpu = fs.existsSync(dataPath) ? JSON.parse(fs.readFileSync(dataPath, 'utf8')) : null;
  const g = computeGoals(results, dataCpu);
  const md = goalsMarkdown(g);
  fs.writeFileSync(path.join(out, 'goals.md'), md);
  fs.writeFileSync(
    path.join(out, 'goals.json'),
    JSON.stringify(
      { ...g, goals: g.goals.map(({ pass, ...rest }) => ({ ...rest, pass })) },
      null,
      2,
    ) + '\n',
  );
  console.log('\n' + md);
  return g;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv[2]) {
    console.error('usage: node bench/render/lib/report.mjs <OUT folder>');
    process.exit(2);
  }
  writeReport(path.resolve(process.argv[2]));
}
