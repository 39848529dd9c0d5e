import { describe, expect, it } from 'vitest';
import { devErrorPage, devScriptTag, scriptNonce } from './dev-page-script.js';

describe('scriptNonce', () => {
  it('reads the nonce of script-src only', () => {
    const csp = "default-src 'self'; style-src 'nonce-style'; script-src 'self' 'nonce-abc+/=='";
    expect(scriptNonce(csp)).toBe('abc+/==');
    expect(scriptNonce("default-src 'self'")).toBeUndefined();
    expect(scriptNonce(undefined)).toBeUndefined();
  });
});

describe('devScriptTag', () => {
  it('is one nonce’d script listening to the dev events of its request and build', () => {
    const tag = devScriptTag('n0nce', 'abc123', 7);
    expect(tag.startsWith('<script nonce="n0nce">')).toBe(true);
    expect(tag).toContain('"/__strata/dev-events?request=abc123", 7)');
    expect(tag.match(/<\/script>/g)).toHaveLength(1);
  });
});

describe('devErrorPage', () => {
  it('shows the problem escaped, with the script', () => {
    const page = devErrorPage({ title: 'Build failed', detail: 'Unexpected "<b>"' }, '<script>');
    expect(page).toContain('Unexpected &#34;&#60;b&#62;&#34;');
    expect(page).toContain('<script></body>');
  });
});
