import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { securityHeaderBlock } from './header-block.js';
import { helmetOptions } from './security-policy.js';

/** What helmet's middleware itself sets on a response for `nonce`, by lowercase name. */
function helmetHeaders(nonce: string, policy = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(helmetOptions(policy, nonce))(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    () => undefined,
  );
  return headers;
}

describe('securityHeaderBlock', () => {
  it('gives exactly the headers helmet sets, the policy with the nonce asked for', () => {
    const policy = { frameAncestors: ["'self'"], connectSources: ['https://relay.example'] };
    const block = securityHeaderBlock(policy);
    const { 'content-security-policy': expected, ...rest } = helmetHeaders('abc123==', policy);
    expect(block.fixed).toEqual(rest);
    expect(block.policyWith('abc123==')).toBe(expected);
  });

  it('keeps the policy out of the fixed headers and puts each nonce where helmet would', () => {
    const block = securityHeaderBlock({});
    expect(Object.keys(block.fixed)).not.toContain('content-security-policy');
    expect(block.fixed['x-content-type-options']).toBe('nosniff');
    expect(block.fixed['x-frame-options']).toBe('DENY');
    expect(block.policyWith('one')).toContain("script-src 'nonce-one' 'strict-dynamic'");
    expect(block.policyWith('two')).toContain("script-src 'nonce-two' 'strict-dynamic'");
  });

  it('cannot be changed by whoever holds it', () => {
    const block = securityHeaderBlock({});
    expect(Object.isFrozen(block.fixed)).toBe(true);
  });
});
