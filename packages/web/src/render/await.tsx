/**
 * <Await> renders a deferred value from a loader once it arrives, with a fallback until then.
 */
import { Suspense, use, type ReactNode } from 'react';
import { jsonForScript } from '../protocol/safe-json.js';
import { ScriptNonceContext } from './script-nonce.js';
import { SegmentContext } from './segment-tree.js';
import { inlineScript } from './segment-source.js';

import type { DeferredRef } from '../routes/route-types.js';

export type { DeferredRef };

/** Props of <Await>. */
export interface AwaitProps<T> {
  readonly value: DeferredRef<T>;
  readonly fallback: ReactNode;
  readonly children: (value: T) => ReactNode;
  /** Shown if the value failed; defaults to a short message. */
  readonly errorElement?: ReactNode;
}

/** Renders `children(value)` when the deferred value resolves. */
export function Await<T>(props: AwaitProps<T>): ReactNode {
  return (
    <Suspense fallback={props.fallback}>
      <Resolved {...props} />
    </Suspense>
  );
}

function Resolved<T>({ value, children, errorElement }: AwaitProps<T>): ReactNode {
  const segment = use(SegmentContext);
  if (!segment) throw new Error('<Await> must be rendered inside a route segment');
  const outcome = use(segment.source.deferred(segment.id, value.$deferred));
  const nonce = use(ScriptNonceContext);
  const script = segment.source.emitScripts ? (
    <script
      nonce={nonce}
      dangerouslySetInnerHTML={{
        __html: inlineScript(['d', segment.id, value.$deferred, outcome], jsonForScript),
      }}
    />
  ) : null;
  return (
    <>
      {script}
      {outcome.status === 'ok'
        ? children(outcome.value as T)
        : (errorElement ?? <p role="alert">This part failed to load.</p>)}
    </>
  );
}
