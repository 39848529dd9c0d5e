/**
 * The benchmark routes: /bench/items (first 100 items) and /bench/items/:id, data from the
 * data service, rendered per request.
 */
import { segment } from '@strata/web';
import { formatPrice, parseId, type AppServices } from '../services.js';
import { BenchRootLayout, BenchSectionLayout } from './bench-layouts.js';

/** The fields the list prints (the payload carries nothing else). */
interface BenchListItem {
  readonly id: number;
  readonly title: string;
  readonly priceCents: number;
  readonly description: string;
}

/** The fields the item page prints. */
interface BenchItem extends BenchListItem {
  readonly category: string;
}

const itemsPage = segment<{ items: BenchListItem[] }, AppServices>({
  id: 'bench-items',
  path: 'items',
  kind: 'page',
  async loader({ services, tag }) {
    const page = await services.catalog.listItems({ pageSize: 100 });
    tag(...page.tags);
    return {
      items: page.items.map(({ id, title, priceCents, description }) => ({
        id,
        title,
        priceCents,
        description,
      })),
    };
  },
  component: ({ data }) => (
    <>
      <h1>Items</h1>
      <ul className="items">
        {data.items.map((item) => (
          <li key={item.id}>
            <a href={`/bench/items/${item.id}`}>{item.title}</a>
            <span className="price">{formatPrice(item.priceCents)}</span>
            <p>{item.description}</p>
          </li>
        ))}
      </ul>
    </>
  ),
});

const itemPage = segment<{ item: BenchItem }, AppServices>({
  id: 'bench-item',
  path: 'items/:id',
  kind: 'page',
  async loader({ params, services, notFound, tag }) {
    const id = parseId(params['id']);
    const found = id === null ? null : await services.catalog.getItem(id);
    if (!found) return notFound();
    tag(...found.tags);
    const { item } = found;
    return {
      item: {
        id: item.id,
        title: item.title,
        priceCents: item.priceCents,
        category: item.categoryId,
        description: item.description,
      },
    };
  },
  component: ({ data: { item } }) => (
    <article>
      <h1>{item.title}</h1>
      <p className="price">{formatPrice(item.priceCents)}</p>
      <p className="category">{item.category}</p>
      <p>{item.description}</p>
      <a href="/bench/items">Back to items</a>
    </article>
  ),
});

/** The benchmark's root layout and everything under it. */
export const benchRoot = segment<null, AppServices>({
  id: 'bench-root',
  path: 'bench',
  kind: 'layout',
  root: true,
  component: BenchRootLayout,
  notFound: () => <h1>Not found</h1>,
  children: [
    segment<null, AppServices>({
      id: 'bench-section',
      path: '',
      kind: 'layout',
      component: BenchSectionLayout,
      children: [itemsPage, itemPage],
    }),
  ],
});
