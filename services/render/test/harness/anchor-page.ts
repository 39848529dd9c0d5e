/**
 * The benchmark anchors' own Fastify+React page (bench/anchors/fastify-react/page.mjs, a copy of
 * the anchor's module) rendered with this repository's React, so tests can compare our visible
 * markup with it.
 */
import { renderToString } from 'react-dom/server';

const ANCHORS = new URL('../../../../bench/anchors/', import.meta.url);

interface AnchorModule {
  RootLayout: (props: { children: unknown }) => unknown;
  SectionLayout: (props: { children: unknown }) => unknown;
  ItemsPage: (props: { items: unknown[] }) => unknown;
  ItemPage: (props: { item: unknown }) => unknown;
}

async function loadAnchor(): Promise<{
  page: AnchorModule;
  data: { getItems(n?: number): Promise<unknown[]>; getItem(id: number): Promise<unknown> };
}> {
  // Plain imports: the copy resolves 'react' to this repository's, the one our pages use.
  const page = (await import(
    /* @vite-ignore */ new URL('fastify-react/page.mjs', ANCHORS).href
  )) as AnchorModule;
  const data = await import(/* @vite-ignore */ new URL('shared/data.mjs', ANCHORS).href);
  return { page, data };
}

/** The anchor's markup for /bench/items and /bench/items/:id (doctype included). */
export async function anchorMarkup(
  path: '/bench/items' | `/bench/items/${number}`,
): Promise<string> {
  const { page, data } = await loadAnchor();
  const { createElement: h } = await import('react');
  const content =
    path === '/bench/items'
      ? h(page.ItemsPage as never, { items: await data.getItems(100) } as never)
      : h(
          page.ItemPage as never,
          { item: await data.getItem(Number(path.split('/').pop())) } as never,
        );
  return `<!DOCTYPE html>${renderToString(h(page.RootLayout as never, null, h(page.SectionLayout as never, null, content)) as never)}`;
}

/** A page's markup without framework additions (scripts, module preloads). */
export function visibleMarkup(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*\/>/g, '');
}
