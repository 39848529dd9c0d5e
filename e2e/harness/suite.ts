/**
 * The setup every browser suite shares: the local stack and one browser for the whole file.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startLocalStack, type LocalStack } from './stack.js';

/** Starts the stack and Chromium before the file's tests and stops them after. */
export function useStackAndBrowser(): { stack: () => LocalStack; browser: () => Browser } {
  let stack: LocalStack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startLocalStack();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  return {
    stack: () =>
      stack ??
      (() => {
        throw new Error('stack not started');
      })(),
    browser: () =>
      browser ??
      (() => {
        throw new Error('browser not started');
      })(),
  };
}
