// The data service's ListItems answer for the benchmark page on the wire, as the render service's
// transport hands it to the decoder (a Buffer): the full Item messages (ITEM_VIEW_FULL) and the
// basic view the bench app asks for (the four printed fields). For in-process decode costs.
import { ListItemsResponse } from '@strata/proto';

const NOW = new Date('2026-11-22T00:00:00Z');

/** `items`: the page's items as proto Item fields (id, title, priceCents, description, …). */
export function listItemsWire(items) {
  // The same page token and tags the data service sends with either view.
  const encode = (pageItems) =>
    Buffer.from(
      ListItemsResponse.encode({
        items: pageItems,
        nextPageToken: 'x'.repeat(40),
        tags: ['items'],
      }).finish(),
    );
  return {
    full: encode(items.map((item) => ({ ...item, createTime: NOW, updateTime: NOW }))),
    basic: encode(
      items.map(({ id, title, priceCents, description }) => ({
        id,
        title,
        priceCents,
        description,
        categoryId: '',
        version: 0,
      })),
    ),
  };
}
