/**
 * The benchmark routes: /bench/items (first 100 items) and /bench/items/:id, data from the
 * data service, rendered per request.
 */
import { formatPrice, parseId, type CatalogServices } from '@strata/app-catalog/pages';
import { Link, segment } from '@strata/web';
import { BenchRootLayout, BenchSectionLayout } from './bench-layouts.js';

/** The fields the list prints (the payload carries nothing else). */
interface BenchListItem {
  readonly id: number;
  readonly title: string;
  readonly priceCents: number;
  readonly description: string;
}

/** Keeps only what a list prints, so the payload carries nothing else. */
function toListItem({ id, title, priceCents, description }: BenchListItem): BenchListItem {
  return { id, title, priceCents, description };
}

/** The fields the item page prints. */
interface BenchItem extends BenchListItem {
  readonly category: string;
}

const itemsPage = segment<{ items: BenchListItem[] }, CatalogServices>({
  id: 'bench-items',
  path: 'items',
  kind: 'page',
  async loader({ services, tag }) {
    // The list prints four fields: the basic view carries only those (smaller, cheaper answer).
    const page = await services.catalog.listItems({ pageSize: 100, view: 'basic' });
    tag(...page.tags);
    return {
      items: page.items.map(toListItem),
    };
  },
  component: ({ data }) => (
    <>
      <h1>Items</h1>
      <ul className="items">
        {data.items.map((item) => (
          <li key={item.id}>
            <Link href={`/bench/items/${item.id}`}>{item.title}</Link>
            <span className="price">{formatPrice(item.priceCents)}</span>
            <p>{item.description}</p>
          </li>
        ))}
      </ul>
    </>
  ),
});

const itemPage = segment<{ item: BenchItem }, CatalogServices>({
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
      <Link href="/bench/items">Back to items</Link>
    </article>
  ),
});

const categoryPage = segment<{ category: string; items: BenchListItem[] }, CatalogServices>({
  id: 'bench-category',
  path: 'category/:category',
  kind: 'page',
  async loader({ params, services, notFound, tag }) {
    const category = params['category'] ?? '';
    if (!/^cat-(?:1?\d)$/.test(category)) return notFound();
    const page = await services.catalog.listItems({
      categoryId: category,
      pageSize: 100,
      view: 'basic',
    });
    tag(...page.tags);
    return {
      category,
      items: page.items.map(toListItem),
    };
  },
  component: ({ data }) => (
    <>
      <h1>{data.category}</h1>
      <ul className="items">
        {data.items.map((item) => (
          <li key={item.id}>
            <Link href={`/bench/items/${item.id}`}>{item.title}</Link>
            <span className="price">{formatPrice(item.priceCents)}</span>
          </li>
        ))}
      </ul>
    </>
  ),
});

function staticPage(id: string, path: string, title: string, text: string) {
  return segment<null, CatalogServices>({
    id,
    path,
    kind: 'page',
    component: () => (
      <>
        <h1>{title}</h1>
        <p>{text}</p>
      </>
    ),
  });
}

/** The benchmark's root layout and everything under it. */
export const benchRoot = segment<null, CatalogServices>({
  id: 'bench-root',
  path: 'bench',
  kind: 'layout',
  root: true,
  component: BenchRootLayout,
  notFound: () => <h1>Not found</h1>,
  children: [
    segment<null, CatalogServices>({
      id: 'bench-section',
      path: '',
      kind: 'layout',
      component: BenchSectionLayout,
      children: [
        itemsPage,
        itemPage,
        categoryPage,
        staticPage('bench-deals', 'deals', 'Deals', 'No deals today.'),
        staticPage('bench-about', 'about', 'About', 'Bench Store is the benchmark page of Strata.'),
        staticPage('bench-cart', 'cart', 'Cart', 'Your cart is empty.'),
      ],
    }),
  ],
});
