import { describe, expect, it } from 'vitest';
import { classifyTarget, prefetchAllowed } from './navigation-target.js';

const here = new URL('https://shop.test/items?q=1');

describe('classifyTarget', () => {
  it.each([
    ['/items/2', 'soft'],
    ['?q=2', 'soft'],
    ['#reviews', 'hash'],
    ['/items?q=1#top', 'hash'],
    ['https://other.test/', 'hard'],
    ['http://shop.test/items', 'hard'],
    ['/api/items', 'hard'],
    ['/api', 'hard'],
    ['/apiary', 'soft'],
    ['mailto:x@y.z', 'hard'],
  ])('%s is %s', (href, kind) => {
    expect(classifyTarget(href, here).kind).toBe(kind);
  });
});

describe('prefetchAllowed', () => {
  const chrome =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0 Safari/537.36';
  it.each([
    [{ userAgent: chrome }, true],
    [{ userAgent: chrome, saveData: true }, false],
    [{ userAgent: chrome, effectiveType: '2g' }, false],
    [{ userAgent: chrome, effectiveType: 'slow-2g' }, false],
    [{ userAgent: chrome, effectiveType: '4g' }, true],
    [
      { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      false,
    ],
  ])('%j → %s', (hints, allowed) => {
    expect(prefetchAllowed(hints)).toBe(allowed);
  });
});
