/**
 * The dev server's Server-Sent-Events stream: every open page listens; a rebuild sends `reload`,
 * a build or render error sends `problem`. A page connecting says which request served it, so
 * an error that request logged (often after the response ended) reaches its overlay.
 */
import type { ServerResponse } from 'node:http';
import type { DevProblem } from './dev-page-script.js';

// Problems kept per request id for pages that connect after the error was logged.
const KEPT_PROBLEMS = 50;

export class DevEvents {
  readonly #clients = new Set<ServerResponse>();
  readonly #byRequest = new Map<string, DevProblem>();

  /** Opens a stream for a page served as `requestId` by build `generation`. */
  connect(response: ServerResponse, requestId: string | null, generation: number): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    this.#clients.add(response);
    response.on('close', () => this.#clients.delete(response));
    send(response, 'hello', String(generation));
    const problem = requestId ? this.#byRequest.get(requestId) : undefined;
    if (problem) send(response, 'problem', JSON.stringify(problem));
  }

  /** Tells every open page. */
  broadcast(event: 'reload' | 'problem', data: string): void {
    for (const client of this.#clients) send(client, event, data);
  }

  /** An error a request caused: to every open page, and kept for the page it served. */
  problem(problem: DevProblem, requestId: string | undefined): void {
    if (requestId) {
      this.#byRequest.set(requestId, problem);
      if (this.#byRequest.size > KEPT_PROBLEMS)
        this.#byRequest.delete(this.#byRequest.keys().next().value!);
    }
    this.broadcast('problem', JSON.stringify(problem));
  }

  close(): void {
    for (const client of this.#clients) client.end();
  }
}

function send(response: ServerResponse, event: string, data: string): void {
  response.write(`event: ${event}\ndata: ${data.replaceAll('\n', '\ndata: ')}\n\n`);
}
