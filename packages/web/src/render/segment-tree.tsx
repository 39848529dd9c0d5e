/**
 * Renders a matched route as nested segments, on the server and in the browser alike:
 * each layout gets the next segment as children; a segment with a loading view is wrapped in
 * Suspense; a failed or missing segment renders the nearest error or not-found view in its
 * place. On the server every outcome is inlined as a script inside the segment's own output,
 * so hydration data arrives together with the HTML it belongs to.
 */
import { Suspense, createContext, use, useEffect, type ComponentType, type ReactNode } from 'react';
import { jsonForScript } from '../protocol/safe-json.js';
import type { ErrorViewProps, SegmentDefinition } from '../routes/route-types.js';
import { SegmentErrorBoundary } from './error-boundary.js';
import { ErrorReporterContext } from './error-reporting.js';
import { inlineScript, type SegmentSource } from './segment-source.js';

interface Views {
  readonly error?: ComponentType<ErrorViewProps>;
  readonly notFound?: ComponentType;
}

const ViewsContext = createContext<Views>({});
/** The segment being rendered, for <Await>. */
export const SegmentContext = createContext<{ id: string; source: SegmentSource } | null>(null);

/** Props of the whole tree. */
export interface SegmentTreeProps {
  readonly segments: readonly SegmentDefinition<never>[];
  readonly params: Readonly<Record<string, string>>;
  readonly source: SegmentSource;
}

/** The rendered route. */
export function SegmentTree({ segments, params, source }: SegmentTreeProps): ReactNode {
  return renderFrom(segments, 0, params, source, {});
}

function renderFrom(
  segments: readonly SegmentDefinition<never>[],
  index: number,
  params: Readonly<Record<string, string>>,
  source: SegmentSource,
  views: Views,
): ReactNode {
  const definition = segments[index];
  if (!definition) return null;
  const inner: Views = {
    error: definition.error ?? views.error,
    notFound: definition.notFound ?? views.notFound,
  };
  const child = () => renderFrom(segments, index + 1, params, source, inner);
  let node: ReactNode = (
    <SegmentView
      key={definition.id}
      definition={definition}
      params={params}
      source={source}
      renderChild={child}
    />
  );
  if (definition.loading) {
    const Loading = definition.loading;
    node = <Suspense fallback={<Loading />}>{node}</Suspense>;
  }
  // A layout's error view replaces what is below it; a page's replaces the page.
  if (definition.error && definition.kind === 'page')
    node = <SegmentErrorBoundary view={definition.error}>{node}</SegmentErrorBoundary>;
  return <ViewsContext value={views}>{node}</ViewsContext>;
}

interface SegmentViewProps {
  readonly definition: SegmentDefinition<never>;
  readonly params: Readonly<Record<string, string>>;
  readonly source: SegmentSource;
  readonly renderChild: () => ReactNode;
}

function SegmentView({ definition, params, source, renderChild }: SegmentViewProps): ReactNode {
  const state = use(source.segment(definition.id));
  const outcome = state.outcome;
  const views = use(ViewsContext);
  const reporter = use(ErrorReporterContext);
  useEffect(() => {
    if (outcome.status === 'error')
      reporter?.serverError(outcome, { digest: outcome.digest, message: outcome.message });
  }, [reporter, outcome]);
  const script = source.emitScripts ? (
    <script
      dangerouslySetInnerHTML={{ __html: inlineScript(['s', definition.id, state], jsonForScript) }}
    />
  ) : null;

  if (outcome.status !== 'ok') {
    const own: Views = {
      error: definition.error ?? views.error,
      notFound: definition.notFound ?? views.notFound,
    };
    const fallback =
      outcome.status === 'not-found' || outcome.status === 'redirect' ? (
        own.notFound ? (
          <own.notFound />
        ) : (
          <DefaultNotFound />
        )
      ) : own.error ? (
        <own.error error={{ message: outcome.message, digest: outcome.digest }} reset={reload} />
      ) : (
        <DefaultSegmentError digest={outcome.digest} />
      );
    // After streaming began the status is already 200: keep crawlers away, or redirect in-page.
    const meta =
      outcome.status === 'redirect' ? (
        <meta
          httpEquiv="refresh"
          content={`${outcome.httpStatus === 308 ? 0 : 1};url=${outcome.location}`}
        />
      ) : outcome.status === 'not-found' ? (
        <meta name="robots" content="noindex" />
      ) : null;
    return (
      <>
        {script}
        {meta}
        {fallback}
      </>
    );
  }

  const Component = definition.component as ComponentType<{
    data: unknown;
    params: typeof params;
    children?: ReactNode;
  }>;
  const context = { id: definition.id, source };
  if (definition.kind === 'page')
    return (
      <SegmentContext value={context}>
        {script}
        <Component data={outcome.data} params={params} />
      </SegmentContext>
    );
  let children: ReactNode = renderChild();
  if (definition.error) {
    const ErrorView = definition.error;
    children = <SegmentErrorBoundary view={ErrorView}>{children}</SegmentErrorBoundary>;
  }
  return (
    <SegmentContext value={context}>
      <Component data={outcome.data} params={params}>
        {script}
        {children}
      </Component>
    </SegmentContext>
  );
}

function reload(): void {
  if (typeof location !== 'undefined') location.reload();
}

function DefaultNotFound(): ReactNode {
  return (
    <div role="alert">
      <h1>404</h1>
      <p>This page could not be found.</p>
    </div>
  );
}

function DefaultSegmentError({ digest }: { digest: string }): ReactNode {
  return (
    <div role="alert">
      <p>
        Application error: a server-side exception has occurred (see the server logs for more
        information).
      </p>
      <p>Digest: {digest}</p>
    </div>
  );
}
