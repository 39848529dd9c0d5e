/**
 * How rendered pages report errors to telemetry: a server error shown by a segment (its
 * digest links it to the server's own report) and an error thrown while rendering in the
 * browser. Provided by the browser runtime; absent on the server and without telemetry.
 */
import { createContext } from 'react';

/** Where the rendered tree reports errors. */
export interface ErrorReporter {
  /** A segment shows a server error; `outcome` identifies it so it is reported once. */
  serverError(
    outcome: object,
    details: { digest: string; message: string; traceId?: string },
  ): void;
  /** Rendering threw in the browser and a boundary caught it. */
  clientError(error: unknown): void;
}

export const ErrorReporterContext = createContext<ErrorReporter | null>(null);
