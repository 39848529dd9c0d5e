/**
 * The shape of an application: a tree of segments (layouts and pages), each with an optional
 * server loader, an isomorphic component and optional loading, error and not-found views.
 * Nothing here knows any particular application.
 */
import type { ComponentType, ReactNode } from 'react';

/** Read access a loader has to the request; reading headers or cookies makes a segment private. */
export interface LoaderRequest {
  /** A request header (lower-case name). Marks the segment private. */
  header(name: string): string | undefined;
  /** A cookie. Marks the segment private. */
  cookie(name: string): string | undefined;
}

/** A value a loader hands to the page before it resolves; streams in when it does. */
export interface Deferred<T> {
  readonly kind: 'deferred';
  /** Stable within the segment: identifies the value on the wire. */
  readonly key: string;
  readonly promise: Promise<T>;
}

/** A deferred value as components receive it in `data`. */
export interface DeferredRef<T> {
  readonly $deferred: string;
  /** Phantom: the value's type. */
  readonly __type?: T;
}

/** The data a loader returns for a component whose data is `Data`: a Deferred per DeferredRef. */
export type LoaderData<Data> = {
  [K in keyof Data]: Data[K] extends DeferredRef<infer T> ? Deferred<T> : Data[K];
};

/** What a loader receives. `Services` is whatever the application wires in (its data gateway). */
export interface LoaderContext<Services = unknown> {
  /** Route params; the names read become part of the segment's cache key. */
  readonly params: Readonly<Record<string, string>>;
  /** Search params; the names read become part of the segment's cache key. */
  readonly search: { get(name: string): string | null };
  readonly request: LoaderRequest;
  readonly services: Services;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** Names the data this segment used, for cache invalidation. */
  tag(...tags: readonly string[]): void;
  /** Lets part of the data stream in later (rendered with <Await>). */
  defer<T>(key: string, promise: Promise<T>): Deferred<T>;
  /** Renders the nearest not-found view (status 404 before streaming starts). */
  notFound(): never;
  /**
   * Redirects (307 by default; 308 permanent; 303 after a POST) to a path on this site: an
   * absolute or protocol-relative URL is reduced to its path, query and fragment.
   */
  redirect(location: string, status?: 303 | 307 | 308): never;
}

/** A server loader: returns the segment's data (JSON-serialisable, Deferreds allowed at top level). */
export type Loader<Data = unknown, Services = unknown> = (
  context: LoaderContext<Services>,
) => Promise<Data> | Data;

/** Props of a segment component. Layouts also get `children`. */
export interface SegmentProps<Data = unknown> {
  readonly data: Data;
  readonly params: Readonly<Record<string, string>>;
  readonly children?: ReactNode;
}

/** Props of an error view. */
export interface ErrorViewProps {
  readonly error: { readonly message: string; readonly digest?: string };
  /** Re-renders the segment (client only). */
  readonly reset: () => void;
}

/** One node of the route tree. */
export interface SegmentDefinition<Services = unknown> {
  /** Unique and stable across builds: it names the segment on the wire and in caches. */
  readonly id: string;
  /** Path pattern relative to the parent: '' (none), 'bench', 'items/:id', '*rest'. */
  readonly path: string;
  readonly kind: 'layout' | 'page';
  /** A root layout renders <html>; navigating between different root layouts reloads the page. */
  readonly root?: boolean;
  // Components are typed loosely here; `segment()` checks the pairing of loader and component.
  readonly loader?: Loader<unknown, Services>;
  readonly component: ComponentType<SegmentProps<never>>;
  /** Shown while this segment (and below) loads; also where an `auto` prefetch stops. */
  readonly loading?: ComponentType;
  /** Shown when this segment or one below it fails. */
  readonly error?: ComponentType<ErrorViewProps>;
  /** Shown when this segment or one below it is not found. */
  readonly notFound?: ComponentType;
  readonly children?: readonly SegmentDefinition<Services>[];
}

/** Declares a segment with its loader and component checked against each other. */
export function segment<Data, Services = unknown>(
  definition: Omit<SegmentDefinition<Services>, 'loader' | 'component'> & {
    loader?: Loader<LoaderData<Data>, Services>;
    component: ComponentType<SegmentProps<Data>>;
  },
): SegmentDefinition<Services> {
  return definition as unknown as SegmentDefinition<Services>;
}
