/**
 * ResizeObserver loop notices: the older "loop limit exceeded" text and Chromium's current
 * "loop completed with undelivered notifications." (case-insensitive, as Relay matches them).
 */
import { messageCandidates } from '../envelope/filterable-item.js';
import { enabledById, type Filter } from './filter.js';

const PATTERN =
  /^(?:[\w.]+: )?ResizeObserver loop (?:limit exceeded|completed with undelivered notifications)\.?$/i;

/** Drops ResizeObserver loop notices. */
export const resizeObserverFilter: Filter = {
  id: 'resize-observer',
  appliesTo: 'error',
  isEnabled: enabledById('resize-observer'),
  matches: (item) => messageCandidates(item).some((text) => PATTERN.test(text)),
};
