/**
 * The dev server's public port: holds each request until the render server is up after a
 * rebuild, forwards it with a request id, and adds the dev script to HTML pages
 * (dev-page-script.ts). While the app does not build or start, it answers with the error page.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { DevEvents } from './dev-events.js';
import {
  DEV_EVENTS_PATH,
  devErrorPage,
  devScriptTag,
  scriptNonce,
  type DevProblem,
} from './dev-page-script.js';

/** What the proxy asks of the supervisor. */
export interface DevTarget {
  /** Resolves with the server's port once it is up, or with the problem that stops it. */
  ready(): Promise<{ port: number } | { problem: DevProblem }>;
  /** The build being served (pages of an older one reload). */
  generation(): number;
}

export function createDevProxy(target: DevTarget, events: DevEvents): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://dev');
    if (url.pathname === DEV_EVENTS_PATH) {
      events.connect(response, url.searchParams.get('request'), target.generation());
      return;
    }
    void target.ready().then((state) => {
      // The request id the render server adopts (it trusts a proxy on this machine).
      const requestId = randomBytes(16).toString('hex');
      if ('problem' in state) {
        const nonce = randomBytes(16).toString('base64');
        response.writeHead(500, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': `script-src 'nonce-${nonce}'; connect-src 'self'`,
        });
        response.end(
          devErrorPage(state.problem, devScriptTag(nonce, requestId, target.generation())),
        );
        return;
      }
      const upstream = forward(
        {
          host: '127.0.0.1',
          port: state.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, 'x-request-id': requestId },
        },
        (answer) => relay(answer, requestId),
      );
      upstream.on('error', (error) => {
        if (response.headersSent) return void response.destroy();
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`strata dev: the render server did not answer: ${error.message}`);
      });
      request.pipe(upstream);
    });

    function relay(answer: IncomingMessage, requestId: string): void {
      const nonce = scriptNonce(answer.headers['content-security-policy'] as string | undefined);
      const html = String(answer.headers['content-type'] ?? '').startsWith('text/html');
      if (!html || !nonce || request.method === 'HEAD') {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      }
      // The script goes after the document (the parser puts it into <body>); the length changes.
      const headers = { ...answer.headers };
      delete headers['content-length'];
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.on('data', (chunk: Buffer) => response.write(chunk));
      answer.on('end', () => response.end(devScriptTag(nonce, requestId, target.generation())));
      answer.on('error', () => response.destroy());
    }
  });
}
