/**
 * The catalogue: home (categories), the item list with category filter, search and pages,
 * item detail with edit and delete, a create form, and a deliberately slow page that streams.
 */
import type { Category } from '@strata/proto';
import { Await, Link, segment, type DeferredRef } from '@strata/web';
import { ReadRefused } from '../gateway/read-refused.js';
import { parseId } from '../item-id.js';
import { formatPrice } from '../price.js';
import type { AppServices } from '../services.js';
import { DeleteForm, ItemForm } from './item-form.js';
import { ShopError, ShopLayout, ShopNotFound } from './shop-layout.js';
import { slowPage } from './slow-page.js';
import {
  clientErrorPage,
  renderErrorPage,
  segmentErrorPage,
  serverErrorPage,
} from './error-pages.js';

interface ListedItem {
  readonly id: number;
  readonly title: string;
  readonly priceCents: number;
  readonly categoryId: string;
}

const home = segment<{ categories: Category[] }, AppServices>({
  id: 'home',
  path: '',
  kind: 'page',
  async loader({ services, tag }) {
    const { categories, tags } = await services.catalog.listCategories();
    tag(...tags);
    return { categories };
  },
  component: ({ data }) => (
    <section>
      <h1>Catalogue</h1>
      <ul className="categories">
        {data.categories.map((category) => (
          <li key={category.id}>
            <Link href={`/items?category=${category.id}`}>{category.name}</Link>
          </li>
        ))}
      </ul>
    </section>
  ),
  error: ShopError,
});

const itemList = segment<
  { items: ListedItem[]; next: string; category: string; q: string; categories: Category[] },
  AppServices
>({
  id: 'item-list',
  path: 'items',
  kind: 'page',
  async loader({ search, services, tag, notFound, redirect }) {
    const category = search.get('category') ?? '';
    const q = search.get('q') ?? '';
    const page = search.get('page') ?? '';
    const [list, categories] = await Promise.all([
      services.catalog.listItems({ categoryId: category, query: q, pageSize: 20, pageToken: page }),
      services.catalog.listCategories(),
    ]).catch((error: unknown) => {
      if (!(error instanceof ReadRefused)) throw error;
      // A page link from another query, or signed before the secret changed: the first page.
      const fields = Object.keys(error.fieldErrors);
      if (page !== '' && fields.length === 1 && fields[0] === 'page_token')
        return redirect(itemsHref({ category, q }));
      // A filter no list can have (a malformed category, an over-long search): nothing here.
      return notFound();
    });
    tag(...list.tags, ...categories.tags);
    return {
      items: list.items.map(({ id, title, priceCents, categoryId }) => ({
        id,
        title,
        priceCents,
        categoryId,
      })),
      next: list.nextPageToken,
      category,
      q,
      categories: categories.categories,
    };
  },
  component: ({ data }) => (
    <section>
      <h1>Items</h1>
      <form method="get" className="filters">
        <input name="q" defaultValue={data.q} placeholder="Search" maxLength={200} />
        <select name="category" defaultValue={data.category}>
          <option value="">All categories</option>
          {data.categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <button type="submit">Filter</button>
      </form>
      {data.items.length === 0 ? <p>No items match.</p> : null}
      <ul className="items">
        {data.items.map((item) => (
          <li key={item.id}>
            <Link href={`/items/${item.id}`}>{item.title}</Link>
            <span className="price">{formatPrice(item.priceCents)}</span>
          </li>
        ))}
      </ul>
      {data.next ? (
        <Link rel="next" href={itemsHref({ category: data.category, q: data.q, page: data.next })}>
          Next page
        </Link>
      ) : null}
    </section>
  ),
  error: ShopError,
});

/** The list's URL for these filters (empty ones left out). */
function itemsHref(filters: { category: string; q: string; page?: string }): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  return query ? `/items?${query}` : '/items';
}

const newItem = segment<{ categories: Category[] }, AppServices>({
  id: 'item-new',
  path: 'items/new',
  kind: 'page',
  async loader({ services }) {
    return {
      categories: (await services.catalog.listCategories()).categories,
    };
  },
  component: ({ data }) => (
    <section>
      <h1>New item</h1>
      <ItemForm
        action="createItem"
        categories={data.categories}
        submitLabel="Create"
        initial={{
          title: '',
          price: '',
          categoryId: data.categories[0]?.id ?? '',
          description: '',
        }}
      />
    </section>
  ),
  error: ShopError,
});

interface ItemDetail {
  readonly item: {
    id: number;
    title: string;
    priceCents: number;
    categoryId: string;
    description: string;
    version: number;
  };
  readonly categories: Category[];
  readonly related: DeferredRef<ListedItem[]>;
}

const itemDetail = segment<ItemDetail, AppServices>({
  id: 'item-detail',
  path: 'items/:id',
  kind: 'page',
  async loader({ params, services, notFound, tag, defer }) {
    const id = parseId(params['id']);
    const [found, categories] = await Promise.all([
      id === null ? null : services.catalog.getItem(id),
      services.catalog.listCategories(),
    ]);
    if (!found) return notFound();
    tag(...found.tags);
    const { item } = found;
    const related = services.catalog
      .listItems({ categoryId: item.categoryId, pageSize: 5 })
      .then((page) =>
        page.items
          .filter((other) => other.id !== item.id)
          .map(({ id: otherId, title, priceCents, categoryId }) => ({
            id: otherId,
            title,
            priceCents,
            categoryId,
          })),
      );
    return {
      item: {
        id: item.id,
        title: item.title,
        priceCents: item.priceCents,
        categoryId: item.categoryId,
        description: item.description,
        version: item.version,
      },
      categories: categories.categories,
      related: defer('related', related),
    };
  },
  component: ({ data: { item, categories, related } }) => (
    <article>
      <h1>{item.title}</h1>
      <p className="price">{formatPrice(item.priceCents)}</p>
      <p className="category">{item.categoryId}</p>
      <p>{item.description}</p>
      <h2>Edit</h2>
      <ItemForm
        action="updateItem"
        categories={categories}
        submitLabel="Save"
        hidden={{ id: String(item.id), version: String(item.version) }}
        initial={{
          title: item.title,
          price: (item.priceCents / 100).toFixed(2),
          categoryId: item.categoryId,
          description: item.description,
        }}
      />
      <DeleteForm id={item.id} version={item.version} />
      <h2>More in {item.categoryId}</h2>
      <Await value={related} fallback={<p>Loading related items…</p>}>
        {(items) => (
          <ul className="related">
            {items.map((other) => (
              <li key={other.id}>
                <Link href={`/items/${other.id}`}>{other.title}</Link>
              </li>
            ))}
          </ul>
        )}
      </Await>
    </article>
  ),
  error: ShopError,
});

/** The catalogue's root layout and pages. */
export const shopRoot = segment<null, AppServices>({
  id: 'shop',
  path: '',
  kind: 'layout',
  root: true,
  component: ShopLayout,
  notFound: ShopNotFound,
  children: [
    home,
    itemList,
    newItem,
    itemDetail,
    slowPage,
    serverErrorPage,
    segmentErrorPage,
    clientErrorPage,
    renderErrorPage,
  ],
});
