// The benchmark's three segments with plain <a> instead of @strata/web's <Link> (the page before
// 30951a8; identical markup), to price the 125 Link components per page.

const NAV_LINKS = [
  ['/', 'Home'],
  ['/bench/items', 'Items'],
  ['/bench/deals', 'Deals'],
  ['/bench/about', 'About'],
  ['/bench/cart', 'Cart'],
];
/** The segments, rebuilt around the given definitions with plain anchors. */
export function plainBenchSegments({ React, benchRoot, section, itemsPage, formatPrice }) {
  const h = React.createElement;
  return [
    {
      ...benchRoot,
      component: ({ children }) =>
        h(
          'html',
          { lang: 'en' },
          h(
            'head',
            null,
            h('meta', { charSet: 'utf-8' }),
            h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
            h('title', null, 'Bench Store'),
          ),
          h(
            'body',
            null,
            h(
              'header',
              null,
              h(
                'nav',
                null,
                NAV_LINKS.map(([href, label]) => h('a', { key: href, href }, label)),
              ),
            ),
            h('main', null, children),
            h('footer', null, h('p', null, 'Bench Store anchor page')),
          ),
        ),
    },
    {
      ...section,
      component: ({ children }) =>
        h(
          'div',
          { className: 'section' },
          h(
            'aside',
            null,
            h(
              'ul',
              null,
              Array.from({ length: 20 }, (_, n) =>
                h('li', { key: n }, h('a', { href: `/bench/category/cat-${n}` }, `cat-${n}`)),
              ),
            ),
          ),
          h('section', null, children),
        ),
    },
    {
      ...itemsPage,
      component: ({ data }) =>
        h(
          React.Fragment,
          null,
          h('h1', null, 'Items'),
          h(
            'ul',
            { className: 'items' },
            data.items.map((item) =>
              h(
                'li',
                { key: item.id },
                h('a', { href: `/bench/items/${item.id}` }, item.title),
                h('span', { className: 'price' }, formatPrice(item.priceCents)),
                h('p', null, item.description),
              ),
            ),
          ),
        ),
    },
  ];
}
