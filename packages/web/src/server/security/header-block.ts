/**
 * The security headers of a policy, computed once. helmet decides every value (the policy's
 * directives, its defaults for the other headers); running its middleware on each request only
 * to get the same headers again cost a dozen chained calls and a `setHeader` each, and headers
 * set on the raw response make Node merge them header by header when the reply is written. The
 * Content-Security-Policy differs per response only by its script nonce, so it is kept as the
 * text around that nonce.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { helmetOptions, type SecurityPolicy } from './security-policy.js';

/** What `securityHeaderBlock` answers. */
export interface SecurityHeaderBlock {
  /** Every header but the policy, by lowercase name. */
  readonly fixed: Readonly<Record<string, string>>;
  /** The Content-Security-Policy carrying `nonce` as its script nonce. */
  policyWith(nonce: string): string;
}

// Base64 never contains '!', so this cannot occur in a policy by accident.
const NONCE_MARK = '!strata-nonce!';
const POLICY = 'content-security-policy';

/** helmet's headers for `policy`; throws if helmet did not answer synchronously with one nonce. */
export function securityHeaderBlock(policy: SecurityPolicy): SecurityHeaderBlock {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let answered = false;
  helmet(helmetOptions(policy, NONCE_MARK))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
      answered = true;
    },
  );
  const parts = headers.get(POLICY)?.split(NONCE_MARK);
  if (!answered || parts?.length !== 2)
    throw new Error('helmet did not give one Content-Security-Policy with one script nonce');
  headers.delete(POLICY);
  const [before, after] = parts as [string, string];
  return {
    fixed: Object.freeze(Object.fromEntries(headers)),
    policyWith: (nonce) => before + nonce + after,
  };
}
