// Bytes allocated by a V8 sampling heap profile (HeapProfiler.startSampling with the objects
// collected by GC kept, inspector.mjs) by group, by the nearest owning caller and by function,
// and two such summaries side by side per request. Allocation is what a request does, not how
// busy the machine was: unlike CPU time it reads the same on a loaded machine. Pure.
import { diffRows } from './profile-diff.mjs';
import { PROFILE_GROUPS } from './profile-groups.mjs';
import { ownerOf, stackOf } from './profile-stacks.mjs';
import { shortFile } from './profile-summary.mjs';

function add(map, key, bytes, fields) {
  const entry = map.get(key) ?? { ...fields, bytes: 0 };
  entry.bytes += bytes;
  map.set(key, entry);
}

const byBytes = (map) => [...map.values()].sort((a, b) => b.bytes - a.bytes);

/**
 * `profile` is the sampling heap profile (`{ head }`: nodes with `id`, `callFrame`, `selfSize`,
 * `children`). Returns `{ totalBytes, groups, attributed, functions }`, each row `{ name, bytes }`
 * (functions also `file`), largest first; `notOwners` as in profile-stacks.mjs's ownerOf.
 */
export function summariseAllocations(profile, { groups = PROFILE_GROUPS, notOwners = [] } = {}) {
  const nodes = new Map();
  const parent = new Map();
  const pending = [profile.head];
  while (pending.length > 0) {
    const node = pending.pop();
    nodes.set(node.id, node);
    for (const child of node.children ?? []) {
      parent.set(child.id, node.id);
      pending.push(child);
    }
  }
  const groupOf = (frame) => groups.find(([, test]) => test(frame))?.[0] ?? 'other';
  const owners = new Set(notOwners);
  const byGroup = new Map();
  const byOwner = new Map();
  const byFunction = new Map();
  let totalBytes = 0;
  for (const node of nodes.values()) {
    const bytes = node.selfSize ?? 0;
    if (bytes === 0) continue;
    totalBytes += bytes;
    const frame = node.callFrame;
    const group = groupOf(frame);
    add(byGroup, group, bytes, { name: group });
    const owner = ownerOf(stackOf(node.id, nodes, parent), groupOf, owners);
    add(byOwner, owner, bytes, { name: owner });
    const name = frame.functionName || '(anonymous)';
    const file = frame.url ? `${shortFile(frame.url)}:${frame.lineNumber + 1}` : '(builtin)';
    add(byFunction, `${name} ${file}`, bytes, { name, file });
  }
  return {
    totalBytes,
    groups: byBytes(byGroup),
    attributed: byBytes(byOwner),
    functions: byBytes(byFunction),
  };
}

const VIEWS = [
  ['groups', 'group (allocated by itself)'],
  ['attributed', 'charged to the nearest owning caller'],
  ['functions', 'function'],
];

/** Rows of one view on either side in bytes per request, `{ name, a, b, delta }`, largest change first. */
export const allocationDiffRows = (a, b, view) => diffRows(a, b, view, 'bytes');

const kb = (bytes) => (bytes / 1024).toFixed(2);
const signedKb = (bytes) => `${bytes >= 0 ? '+' : '−'}${kb(Math.abs(bytes))}`;

/** Markdown: KB allocated per request on each side, then each view's `top` largest changes. */
export function allocationDiffMarkdown(title, a, b, { top = 15 } = {}) {
  const total = (side) => side.summary.totalBytes / side.requests;
  const lines = [
    `### ${title}`,
    '',
    `Allocated per request: A ${kb(total(a))} KB, B ${kb(total(b))} KB (B − A ${signedKb(total(b) - total(a))} KB; ` +
      `${a.requests} and ${b.requests} requests sampled).`,
    '',
  ];
  for (const [view, heading] of VIEWS) {
    lines.push(
      `| ${heading} | A KB/req | B KB/req | B − A |`,
      '|---|---:|---:|---:|',
      ...allocationDiffRows(a, b, view)
        .slice(0, top)
        .map((row) => `| ${row.name} | ${kb(row.a)} | ${kb(row.b)} | ${signedKb(row.delta)} |`),
      '',
    );
  }
  return lines.join('\n');
}
