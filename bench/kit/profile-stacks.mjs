// Views of a CPU profile that need each sample's call stack, not just its leaf: the stage a
// stack belongs to (the first stage in priority order marked anywhere in it), the group charged when the leaf's own
// group does not own its time (node core, builtins: charged to the nearest caller that owns
// it), and the chosen functions the stack passes through (inclusive time). Pure.

/** The frames of node `id` from the leaf up to the root. */
export function stackOf(id, nodes, parent) {
  const frames = [];
  for (let cur = id; cur !== undefined; cur = parent.get(cur))
    frames.push(nodes.get(cur).callFrame);
  return frames;
}

/**
 * The first stage (`[name, RegExp]`, tested on each frame's `function@url`) that any frame of
 * the stack matches: the list's order is the priority, so a stage wins over the ones after it
 * wherever it sits in the stack.
 */
export function stageOf(frames, stages) {
  const texts = frames.map((frame) => `${frame.functionName}@${frame.url}`);
  return stages.find(([, marker]) => texts.some((text) => marker.test(text)))?.[0] ?? 'other';
}

/**
 * The leaf's group, unless it is one of `notOwners`: then the nearest caller's group that is not
 * (or the leaf's own when no caller has one).
 */
export function ownerOf(frames, groupOf, notOwners) {
  const leaf = groupOf(frames[0]);
  if (!notOwners.has(leaf)) return leaf;
  for (const frame of frames.slice(1)) {
    const group = groupOf(frame);
    if (!notOwners.has(group)) return group;
  }
  return leaf;
}

/** The labels of `inclusive` (`{ label, name, url }`) whose function is anywhere on the stack. */
export const inclusiveLabels = (frames, inclusive) =>
  inclusive
    .filter(({ name, url }) =>
      frames.some((frame) => frame.functionName === name && url.test(frame.url)),
    )
    .map(({ label }) => label);
