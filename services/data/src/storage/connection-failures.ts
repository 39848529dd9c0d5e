/**
 * Which database errors say "this connection, or the server behind it, cannot serve us right
 * now" rather than "this statement is wrong". The PostgreSQL adapter drops connections on them
 * and retries reads; the gRPC layer answers them with the retryable DATA_UNAVAILABLE.
 */

// SQLSTATEs of a server that is going away, starting, or that ended the connection.
const CONNECTION_STATES = new Set([
  '57P01', // admin_shutdown: the server is stopping (a failover stops the old primary)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, or in recovery
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
// node-postgres reports these without a code: a pool that could not connect in time, a
// connection the server closed, and a client used after its connection failed.
const CONNECTION_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|not queryable|write after end/i;

/** SQLSTATE read_only_sql_transaction: the server is a standby or was made read-only. */
export const READ_ONLY_STATE = '25006';

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** The server is unreachable, or the connection to it broke. */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string' && (CONNECTION_STATES.has(code) || CONNECTION_ERRNOS.has(code)))
    return true;
  return error instanceof Error && CONNECTION_MESSAGES.test(error.message);
}

/** A write reached a server that does not accept writes (a demoted primary, a standby). */
export function isReadOnlyServer(error: unknown): boolean {
  return codeOf(error) === READ_ONLY_STATE;
}
