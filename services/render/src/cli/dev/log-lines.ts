/**
 * The render server's log lines (pino JSON) as `strata dev` prints them, and the errors among
 * them, which the page that caused them shows in an overlay. Pure.
 */
import type { DevProblem } from './dev-page-script.js';

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** One line the server wrote, read. */
export interface ReadLine {
  /** What to print in the terminal. */
  readonly text: string;
  /** An error some request caused: its request id and what the overlay shows. */
  readonly problem?: { readonly requestId: string | undefined; readonly problem: DevProblem };
}

interface PinoLine {
  level?: number;
  msg?: string;
  reqId?: string;
  url?: string;
  err?: { message?: string; stack?: string; type?: string };
}

/** Reads one line: pino JSON becomes `[level] message` and the error's stack; the rest is kept. */
export function readLogLine(line: string): ReadLine {
  let parsed: PinoLine;
  try {
    parsed = JSON.parse(line) as PinoLine;
  } catch {
    return { text: line };
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.level !== 'number')
    return { text: line };
  const level = LEVELS[parsed.level] ?? String(parsed.level);
  const where = parsed.url ? ` (${parsed.url})` : '';
  const stack = parsed.err?.stack ?? parsed.err?.message;
  const text = `[${level}] ${parsed.msg ?? ''}${where}${stack ? `\n${stack}` : ''}`;
  if (parsed.level < 50 || !parsed.err) return { text };
  return {
    text,
    problem: {
      requestId: parsed.reqId,
      problem: {
        title: `${parsed.msg ?? 'Error'}${where}: ${parsed.err.message ?? ''}`,
        detail: parsed.err.stack ?? parsed.err.message ?? '',
      },
    },
  };
}
