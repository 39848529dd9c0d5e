/**
 * Relay's `error_messages` filter: globs over the log message and, for every exception, its
 * value (no type), its type (no value) or `type: value`.
 */
import { anyGlobMatches } from './glob.js';
import type { Filter } from './filter.js';

/** Drops errors whose message matches a configured glob. */
export const errorMessagesFilter: Filter = {
  id: 'error-message',
  appliesTo: 'error',
  isEnabled: (config) => config.enabled.has('error-message') && config.errorMessages.length > 0,
  matches: (item, config) => {
    const candidates: string[] = item.message ? [item.message] : [];
    for (const { type, value } of item.exceptions) {
      if (type !== undefined && value !== undefined) candidates.push(`${type}: ${value}`);
      else if (type !== undefined) candidates.push(type);
      else if (value !== undefined) candidates.push(value);
    }
    return candidates.some((text) => anyGlobMatches(config.errorMessages, text));
  },
};
