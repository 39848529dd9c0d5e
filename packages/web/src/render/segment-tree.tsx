/**
 * Renders a matched route as nested segments, on the server and in the browser alike:
 * each layout gets the next segment as children; a segment with a loading view is wrapped in
 * Suspense; a failed or missing segment renders the nearest error or not-found view in its
 * place. On the server every outcome is inlined as a script inside the segment's own output,
 * so hydration data arrives together with the HTML it belongs to.
 */
import {
  Activity,
  Fragment,
  Suspense,
  createContext,
  memo,
  use,
  useEffect,
  type ComponentType,
  type ReactNode,
} from 'react';
import { jsonForScript } from '../protocol/safe-json.js';
import type { ErrorViewProps, SegmentDefinition } from '../routes/route-types.js';
import { SegmentErrorBoundary } from './error-boundary.js';
import { ErrorReporterContext } from './error-reporting.js';
import { ScriptNonceContext } from './script-nonce.js';
import { inlineScript, type SegmentSource } from './segment-source.js';

interface Views {
  readonly error?: ComponentType<ErrorViewProps>;
  readonly notFound?: ComponentType;
}

const ViewsContext = createContext<Views>({});
/** The segment being rendered, for <Await>. */
export const SegmentContext = createContext<{ id: string; source: SegmentSource } | null>(null);

/** A page as the tree renders it. */
export interface TreePage {
  readonly segments: readonly SegmentDefinition<never>[];
  readonly params: Readonly<Record<string, string>>;
  readonly source: SegmentSource;
  /** Per segment: '' or the token of the hidden render it came from (client/router/page.ts). */
  readonly branches?: readonly string[];
}

/** Props of the whole tree. */
export interface SegmentTreeProps extends TreePage {
  /**
   * A page rendered hidden ahead of a likely navigation, beside the current page's segment at
   * its index `from` (browser only). Its segments above `from` are the current page's.
   */
  readonly next?: (TreePage & { readonly from: number }) | null;
}

type NextPage = SegmentTreeProps['next'];

/** The rendered route. */
export function SegmentTree({ segments, params, source, branches, next }: SegmentTreeProps) {
  const page: TreePage = { segments, params, source, ...(branches && { branches }) };
  return renderFrom(page, 0, {}, next && next.from > 0 ? next : null);
}

function renderFrom(page: TreePage, index: number, views: Views, next: NextPage): ReactNode {
  const { segments, params, source } = page;
  const definition = segments[index];
  if (!definition) return null;
  const inner: Views = {
    error: definition.error ?? views.error,
    notFound: definition.notFound ?? views.notFound,
  };
  const child = () => [
    branch(page, index + 1, inner, 'visible', next),
    next?.from === index + 1 ? branch(next, index + 1, inner, 'hidden', null) : null,
  ];
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

/**
 * A layout's child segment and everything below it. An ordinary branch renders as before; one
 * that came from a hidden render is an Activity under its token's key, so when its navigation
 * commits React finds the hidden render under the same key and only reveals it.
 */
function branch(
  page: TreePage,
  index: number,
  views: Views,
  mode: 'visible' | 'hidden',
  next: NextPage,
): ReactNode {
  const definition = page.segments[index];
  if (!definition) return null;
  const token = page.branches?.[index] ?? '';
  const content = (
    <Branch
      page={page}
      index={index}
      views={views}
      next={next && next.from > index ? next : null}
    />
  );
  return token ? (
    <Activity key={`${definition.id} ${token}`} mode={mode}>
      {content}
    </Activity>
  ) : (
    <Fragment key={definition.id}>{content}</Fragment>
  );
}

interface BranchProps {
  readonly page: TreePage;
  readonly index: number;
  readonly views: Views;
  readonly next: NextPage;
}

// Re-renders only when what it shows changes: a revealed page, or the current one while the
// page ahead changes elsewhere, is not rendered again.
const Branch = memo(
  function Branch({ page, index, views, next }: BranchProps): ReactNode {
    return renderFrom(page, index, views, next);
  },
  (before, after) =>
    before.page.segments === after.page.segments &&
    before.page.params === after.page.params &&
    before.page.source === after.page.source &&
    before.page.branches === after.page.branches &&
    before.index === after.index &&
    before.views.error === after.views.error &&
    before.views.notFound === after.views.notFound &&
    before.next === after.next,
);

interface SegmentViewProps {
  readonly definition: SegmentDefinition<never>;
  readonly params: Readonly<Record<string, string>>;
  readonly source: SegmentSource;
  readonly renderChild: () => ReactNode[];
}

function SegmentView({ definition, params, source, renderChild }: SegmentViewProps): ReactNode {
  const state = use(source.segment(definition.id));
  const outcome = state.outcome;
  const views = use(ViewsContext);
  const reporter = use(ErrorReporterContext);
  const nonce = use(ScriptNonceContext);
  useEffect(() => {
    if (outcome.status === 'error')
      reporter?.serverError(outcome, { digest: outcome.digest, message: outcome.message });
  }, [reporter, outcome]);
  const script = source.emitScripts ? (
    <script
      nonce={nonce}
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
