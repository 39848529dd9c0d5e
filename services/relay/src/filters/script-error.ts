/**
 * Cross-origin "Script error" (browsers hide the details of errors from other origins): the
 * SDK default patterns, with or without the period, and the "Javascript error" variant.
 */
import { messageCandidates } from '../envelope/filterable-item.js';
import { enabledById, type Filter } from './filter.js';

const PATTERNS = [/^Script error\.?$/, /^Javascript error: Script error\.? on line 0$/];

/** Drops cross-origin "Script error." events. */
export const scriptErrorFilter: Filter = {
  id: 'script-error',
  appliesTo: 'error',
  isEnabled: enabledById('script-error'),
  matches: (item) =>
    messageCandidates(item).some((text) => PATTERNS.some((pattern) => pattern.test(text))),
};
