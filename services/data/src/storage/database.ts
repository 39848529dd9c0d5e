/**
 * The one interface the store talks to, implemented by PGlite (embedded) and node-postgres.
 * Both run the same SQL; int8 columns come back as JS numbers in both.
 */

/** Runs SQL with $1-style parameters. */
export interface SqlClient {
  query<Row = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: Row[]; affectedRows: number }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/** Runs a read-only statement outside any transaction; the rows are those query() returns. */
export interface Reader {
  read<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** Options for one transaction. */
export interface TransactionOptions {
  /** Abort the transaction's statements after this many ms (PostgreSQL only). */
  readonly timeoutMs?: number;
}

/** A database the data service owns. */
export interface Database extends SqlClient, Reader {
  /** Which engine: for logs and for the few engine-specific statements. */
  readonly engine: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Calls `onNotify` for every NOTIFY on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Closes every connection. */
  close(): Promise<void>;
}
