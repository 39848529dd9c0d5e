// The minimal Fastify + React anchor (its server's shape: one route, React's
// renderToPipeableStream piped to the socket) with what Strata's /bench/items page carries on
// top of the anchor's markup, each switched on alone, so the anchor goal can be read
// like for like (bench/render/like-for-like.mjs):
//
//   DATA_SERVICE_ADDRESS=host:port  the 100 items read from the data service on every request
//                                   (the basic view, as Strata's bench app asks), instead of
//                                   from memory, with DATA_CLIENT's client:
//     DATA_CLIENT=grpc-js           the generated client over @grpc/grpc-js (the default: what
//                                   an app without Strata would use)
//     DATA_CLIENT=strata            Strata's catalogue client over its node:http2 transport
//   HYDRATION=true                  the items as JSON in the inline script, `<` escaped, as a
//                                   page that hydrates ships its data
//
// Env: PORT (3102), HOST (127.0.0.1). NODE_ENV must be production (the caller sets it).
import { credentials } from '@grpc/grpc-js';
import { createCatalogClient, createGrpcTransport } from '@strata/catalog-client';
import { CatalogServiceClient, ItemView, ListItemsRequest } from '@strata/proto';
import Fastify from 'fastify';
import { renderToPipeableStream } from 'react-dom/server';
import { getItems } from '../shared/data.mjs';
import { BOOTSTRAP_SCRIPT, itemsDocument } from '../fastify-react/page.mjs';

const PORT = Number(process.env.PORT || 3102);
const HOST = process.env.HOST || '127.0.0.1';
const ADDRESS = process.env.DATA_SERVICE_ADDRESS || '';
const HYDRATION = process.env.HYDRATION === 'true';
const HTML = 'text/html; charset=utf-8';

if (process.env.NODE_ENV !== 'production') {
  console.error(`NODE_ENV must be production, not ${process.env.NODE_ENV}`);
  process.exit(2);
}

const DATA_CLIENT = process.env.DATA_CLIENT || 'grpc-js';
const LIST_REQUEST = ListItemsRequest.fromPartial({ pageSize: 100, view: ItemView.ITEM_VIEW_BASIC });

/** Reads the page's 100 items from the data service at `address` with DATA_CLIENT's client. */
function dataServiceReader(address) {
  if (DATA_CLIENT === 'strata') {
    const transport = createGrpcTransport(address);
    const catalog = createCatalogClient(transport);
    return {
      read: () => catalog.listItems(LIST_REQUEST).then((response) => response.items),
      close: () => transport.close(),
    };
  }
  if (DATA_CLIENT !== 'grpc-js') {
    console.error(`DATA_CLIENT must be "grpc-js" or "strata", not ${JSON.stringify(DATA_CLIENT)}`);
    process.exit(2);
  }
  const client = new CatalogServiceClient(address, credentials.createInsecure());
  const read = () =>
    new Promise((resolve, reject) => {
      client.listItems(LIST_REQUEST, { deadline: Date.now() + 5_000 }, (error, response) =>
        error ? reject(error) : resolve(response.items),
      );
    });
  return { read, close: () => client.close() };
}

// Without a data service, the anchors' data as the minimal renderer reads it.
const items = ADDRESS ? dataServiceReader(ADDRESS) : { read: getItems, close() {} };

/** The boot script, with the items for the client when the page hydrates. */
function bootScript(list) {
  if (!HYDRATION) return BOOTSTRAP_SCRIPT;
  const rows = list.map(({ id, title, priceCents, description }) => ({
    id,
    title,
    priceCents,
    description,
  }));
  return `${BOOTSTRAP_SCRIPT};self.__items=${JSON.stringify(rows).replace(/</g, '\\u003c')}`;
}

const app = Fastify({ logger: false });

app.get('/bench/items', async (request, reply) => {
  const list = await items.read();
  reply.hijack();
  const res = reply.raw;
  const stream = renderToPipeableStream(itemsDocument(list), {
    bootstrapScriptContent: bootScript(list),
    onShellReady() {
      if (res.destroyed) return;
      res.statusCode = 200;
      res.setHeader('content-type', HTML);
      stream.pipe(res);
    },
    onShellError(error) {
      console.error('shell error', error);
      if (res.destroyed || res.headersSent) return;
      res.statusCode = 500;
      res.end();
    },
    onError(error) {
      console.error('render error', error);
    },
  });
  res.on('close', () => {
    if (!res.writableFinished) stream.abort(new Error('client closed'));
  });
});

const shutdown = () => {
  items.close();
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port: PORT, host: HOST });
console.log(`fastify-react-data listening on http://${HOST}:${PORT}`);
