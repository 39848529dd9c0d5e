import { describe, expect, it } from 'vitest';
import { PAYLOAD_CONTENT_TYPE } from '../../protocol/constants.js';
import { encodeRecord } from '../../protocol/payload-records.js';
import { submitAction, type ActionDeps } from './submit-action.js';

/** Deps whose fetch answers `records`; records what the action asked of the router. */
function depsAnswering(records: string[]) {
  const calls: string[] = [];
  const deps: ActionDeps = {
    fetch: async () =>
      new Response(records.join('') + encodeRecord({ type: 'end' }), {
        headers: { 'content-type': PAYLOAD_CONTENT_TYPE },
      }),
    url: () => '/notes',
    tree: () => '1;notes',
    apply: () => void calls.push('apply'),
    navigate: (location, everySegment) => void calls.push(`navigate ${location} ${everySegment}`),
    invalidate: (tags) => void calls.push(`invalidate ${tags.join(',')}`),
    reload: () => void calls.push('reload'),
  };
  return { deps, calls };
}

const redirect = (location: string) => encodeRecord({ type: 'redirect', location, status: 303 });

describe('submitAction', () => {
  it('follows a redirect after a revalidation with every segment, none kept', async () => {
    const { deps, calls } = depsAnswering([
      encodeRecord({ type: 'action', ok: true, result: { id: 4 }, revalidated: ['notes'] }),
      redirect('/notes/4'),
    ]);
    expect(await submitAction(deps, 'a'.repeat(32), {})).toEqual({ ok: true, result: { id: 4 } });
    expect(calls).toEqual(['invalidate notes', 'navigate /notes/4 true']);
  });

  it('keeps the layouts it shares with a redirect when the action changed nothing', async () => {
    const { deps, calls } = depsAnswering([
      encodeRecord({ type: 'action', ok: true, result: null, revalidated: [] }),
      redirect('/notes/1'),
    ]);
    await submitAction(deps, 'a'.repeat(32), {});
    expect(calls).toEqual(['navigate /notes/1 false']);
  });
});
