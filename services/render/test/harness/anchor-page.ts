/**
 * The benchmark anchors' own Fastify+React page (shared/bench/anchors/fastify-react/page.mjs)
 * rendered with this repository's React, so tests can compare our visible markup with it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderToString } from 'react-dom/server';

const anchors = fileURLToPath(new URL('../../../../../shared/bench/anchors/', import.meta.url));
const require = createRequire(import.meta.url);

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
  const dir = mkdtempSync(join(tmpdir(), 'strata-anchor-'));
  const source = readFileSync(join(anchors, 'fastify-react/page.mjs'), 'utf8')
    .replaceAll(
      "from 'react'",
      `from ${JSON.stringify(pathToFileURL(require.resolve('react')).href)}`,
    )
    .replaceAll(
      "from '../shared/data.mjs'",
      `from ${JSON.stringify(pathToFileURL(join(anchors, 'shared/data.mjs')).href)}`,
    );
  const file = join(dir, 'page.mjs');
  writeFileSync(file, source);
  const page = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as AnchorModule;
  const data = await import(
    /* @vite-ignore */ pathToFileURL(join(anchors, 'shared/data.mjs')).href
  );
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
