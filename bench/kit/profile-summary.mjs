// Self time of a V8 CPU profile (`node --cpu-prof`) by group, by function and by file. Pure: the
// caller parses the .cpuprofile file. Only samples inside [fromUs, toUs], or inside one of
// `windows` ([fromUs, toUs] pairs), count (the profiler's monotonic microseconds), so start-up,
// warm-up and the other side's turns can be left out.
import { PROFILE_GROUPS } from './profile-groups.mjs';
import { inclusiveLabels, ownerOf, stackOf, stageOf } from './profile-stacks.mjs';

/** A script URL without the machine's paths: from node_modules' package, or the repository's top folder. */
export function shortFile(url) {
  if (!url) return '(builtin)';
  const path = url.replace(/^file:\/\//, '');
  const inModules = path.lastIndexOf('node_modules/');
  if (inModules >= 0) return path.slice(inModules + 'node_modules/'.length);
  const inRepo = /\/((?:services|packages|apps|proto|bench|scripts)\/.*)$/.exec(path);
  return inRepo ? inRepo[1] : path;
}

const sorted = (map, busy, top) =>
  [...map.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map(({ us, ...rest }) => ({ ...rest, ms: us / 1000, share: busy ? us / busy : 0 }));

function add(map, key, us, fields) {
  const entry = map.get(key) ?? { ...fields, us: 0 };
  entry.us += us;
  map.set(key, entry);
}

/**
 * Summary of `profile`: wall, busy and idle ms, and the top groups, functions and files. With
 * `stages` (`[name, RegExp]`) also time by stage of the call stack; with `notOwners` (group
 * names) also `attributed`, their time charged to the nearest owning caller; with `inclusive`
 * (`{ label, name, url }`) the inclusive time of those functions.
 */
export function summariseProfile(
  profile,
  {
    groups = PROFILE_GROUPS,
    fromUs = -Infinity,
    toUs = Infinity,
    windows = [[fromUs, toUs]],
    top = 20,
    stages,
    notOwners,
    inclusive,
  } = {},
) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  let time = profile.startTime;
  let wall = 0;
  let idle = 0;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    time += timeDeltas[i];
    if (!windows.some(([from, to]) => time >= from && time <= to)) continue;
    // A sample stands for the gap to the next one (V8's convention); the last for its own.
    const us = timeDeltas[i + 1] ?? timeDeltas[i];
    wall += us;
    if (nodes.get(samples[i]).callFrame.functionName === '(idle)') idle += us;
    else selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + us);
  }
  const byGroup = new Map();
  const byFunction = new Map();
  const byFile = new Map();
  const byStage = new Map();
  const byOwner = new Map();
  const byInclusive = new Map();
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const groupOf = (frame) => groups.find(([, test]) => test(frame))?.[0] ?? 'other';
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id).callFrame;
    const group = groupOf(frame);
    if (stages || notOwners || inclusive) {
      const frames = stackOf(id, nodes, parent);
      if (stages) add(byStage, stageOf(frames, stages), us, { name: stageOf(frames, stages) });
      if (notOwners) {
        const owner = ownerOf(frames, groupOf, new Set(notOwners));
        add(byOwner, owner, us, { name: owner });
      }
      for (const label of inclusiveLabels(frames, inclusive ?? []))
        add(byInclusive, label, us, { name: label });
    }
    const file = shortFile(frame.url);
    const name = frame.functionName || '(anonymous)';
    add(byGroup, group, us, { name: group });
    add(byFunction, `${name} ${file}:${frame.lineNumber + 1}`, us, {
      name,
      file: frame.url ? `${file}:${frame.lineNumber + 1}` : file,
      group,
    });
    add(byFile, file, us, { file, group });
  }
  const busy = wall - idle;
  return {
    wallMs: wall / 1000,
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    groups: sorted(byGroup, busy, Infinity),
    functions: sorted(byFunction, busy, top),
    files: sorted(byFile, busy, top),
    ...(stages && { stages: sorted(byStage, busy, Infinity) }),
    ...(notOwners && { attributed: sorted(byOwner, busy, Infinity) }),
    ...(inclusive && { inclusive: sorted(byInclusive, busy, Infinity) }),
  };
}

const percent = (share) => `${(share * 100).toFixed(1)}`;

/** The summary as markdown; with `requests`, each row also per request. */
export function profileMarkdown(title, summary, { requests } = {}) {
  const perRequest = (ms) => (requests ? ` | ${(ms / requests).toFixed(4)}` : '');
  const head = requests ? ' | ms/req' : '';
  const rule = requests ? '|---:' : '';
  const table = (first, rows, cells) => [
    `| ${first} | ms | % of busy${head} |`,
    `|---|---:|---:${rule}|`,
    ...rows.map(
      (row) =>
        `| ${cells(row)} | ${row.ms.toFixed(1)} | ${percent(row.share)}${perRequest(row.ms)} |`,
    ),
    '',
  ];
  return [
    `### ${title}`,
    '',
    `${summary.wallMs.toFixed(0)} ms profiled, ${summary.busyMs.toFixed(0)} ms busy on the main thread` +
      (requests ? `, ${requests} requests` : '') +
      '.',
    '',
    ...(summary.stages ? table('stage (by call stack)', summary.stages, (row) => row.name) : []),
    ...table('group (self time)', summary.groups, (row) => row.name),
    ...(summary.attributed
      ? table('charged to the nearest owning caller', summary.attributed, (row) => row.name)
      : []),
    ...table(
      'function (self time)',
      summary.functions,
      (row) => `\`${row.name}\` ${row.file} (${row.group})`,
    ),
    ...table('file (self time)', summary.files, (row) => row.file),
    ...(summary.inclusive ? table('inclusive time of', summary.inclusive, (row) => row.name) : []),
  ].join('\n');
}
