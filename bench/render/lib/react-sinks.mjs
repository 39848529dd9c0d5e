// Ways the micro-benchmark consumes a React stream: into a PassThrough drained by 'data' events
// (as renderDocument's body is consumed) or straight into a counting Writable.
import { PassThrough, Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';

/** Resolves with the number of bytes `readable` produced (a whole Buffer or string body: its size). */
export function drain(readable) {
  if (typeof readable === 'string') return Promise.resolve(Buffer.byteLength(readable));
  if (Buffer.isBuffer(readable)) return Promise.resolve(readable.length);
  return new Promise((resolve, reject) => {
    let bytes = 0;
    readable.on('data', (c) => (bytes += c.length));
    readable.on('end', () => resolve(bytes));
    readable.on('error', reject);
  });
}

/** React into a PassThrough drained by 'data' events, the way renderDocument's body is consumed. */
export function streamReactViaPassThrough(element, options) {
  return new Promise((resolve, reject) => {
    const body = new PassThrough();
    const s = renderToPipeableStream(element, {
      ...options,
      onShellReady: () => {
        s.pipe(body);
        drain(body).then(resolve, reject);
      },
      onShellError: reject,
      onError: reject,
    });
  });
}

/** React straight into a counting sink; resolves with the bytes written. */
export function streamReact(element, options) {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const sink = new Writable({
      write(chunk, _e, cb) {
        bytes += chunk.length;
        cb();
      },
      final(cb) {
        resolve(bytes);
        cb();
      },
    });
    const s = renderToPipeableStream(element, {
      ...options,
      onShellReady: () => s.pipe(sink),
      onShellError: reject,
      onError: reject,
    });
  });
}
