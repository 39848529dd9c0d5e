/**
 * The setup every browser suite shares: a stack (the local stack, or the render service on the
 * notes app) and one browser for the whole file.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startNotesStack, type NotesStack } from './notes-stack.js';
import { startLocalStack, type LocalStack } from './stack.js';

/** What a suite reaches its stack and browser by (each throws before they have started). */
export interface BrowserSuite<Stack> {
  stack: () => Stack;
  browser: () => Browser;
}

/** Starts the local stack and Chromium before the file's tests and stops them after. */
export function useStackAndBrowser(): BrowserSuite<LocalStack> {
  return useBrowserAnd(() => startLocalStack(), 'stack');
}

/** Starts the notes app's render service (its own notes file) and Chromium for the file. */
export function useNotesStackAndBrowser(): BrowserSuite<NotesStack> {
  return useBrowserAnd(() => startNotesStack(), 'notes stack');
}

function useBrowserAnd<Stack extends { stop(): Promise<void> }>(
  start: () => Promise<Stack>,
  name: string,
): BrowserSuite<Stack> {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await start();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  return {
    stack: () => stack ?? notStarted(name),
    browser: () => browser ?? notStarted('browser'),
  };
}

function notStarted(name: string): never {
  throw new Error(`${name} not started`);
}
