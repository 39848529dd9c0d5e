/** A server on another origin: a cross-origin fetch and image target, and a script that throws. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ThirdPartyOrigin {
  readonly origin: string;
  /** Headers of every request it received, in order. */
  readonly requests: IncomingHttpHeaders[];
  readonly server: Server;
}

export async function startThirdParty(): Promise<ThirdPartyOrigin> {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    requests.push(request.headers);
    if (request.url?.startsWith('/throw.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end('throw new Error("third-party failure");');
      return;
    }
    response.writeHead(200, {
      'content-type': 'image/gif',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
    });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, requests, server };
}
