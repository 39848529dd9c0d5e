// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { errorMessagesFilter } from './error-messages.js';
import { configWith } from './test-support.js';

describe('error-message', () => {
  const globs = configWith(['error-message'], {
    errorMessages: ['filteredexception*', '*this is a filtered exception.', '', 'this is'],
  });
  const literals = configWith(['error-message'], {
    errorMessages: [
      'filteredexception: this is a filtered exception.',
      'filteredexception',
      'this is a filtered exception.',
    ],
  });
  it.each<[string | undefined, string | undefined, string | undefined, boolean]>([
    ['UnfilteredException', undefined, 'UnfilteredException', true],
    [undefined, 'This is an unfiltered exception.', 'This is an unfiltered exception.', true],
    [undefined, undefined, 'This is an unfiltered exception.', true],
    [undefined, undefined, '', true],
    [
      'UnfilteredException',
      'This is an unfiltered exception.',
      'UnfilteredException: This is an unfiltered exception.',
      true,
    ],
    ['FilteredException', undefined, 'FilteredException', false],
    [undefined, 'This is a filtered exception.', 'This is a filtered exception.', false],
    [undefined, undefined, 'This is a filtered exception.', false],
    [
      'FilteredException',
      'This is a filtered exception.',
      'FilteredException: This is a filtered exception.',
      false,
    ],
    [
      'OtherException',
      'This is a random exception.',
      'FilteredException: This is a filtered exception.',
      false,
    ],
    [undefined, undefined, 'FilteredException: This is a filtered exception.', false],
    ['FilteredException', 'This is a filtered exception.', 'hi this is a legit log message', false],
  ])('type %s value %s log %s → kept %s', (type, value, formatted, kept) => {
    const exception = type === undefined && value === undefined ? [] : [{ type, value }];
    const item = viewOfEvent({ exception: { values: exception }, logentry: { formatted } });
    expect(errorMessagesFilter.matches(item, globs)).toBe(!kept);
    expect(errorMessagesFilter.matches(item, literals)).toBe(!kept);
  });

  it('matches React and chunk-loading patterns', () => {
    const config = configWith(['error-message'], {
      errorMessages: [
        '*https://reactjs.org/docs/error-decoder.html?invariant={418,419,422,423,425}*',
        'ChunkLoadError: Loading chunk *',
        '*Uncaught *: ChunkLoadError: Loading chunk *',
      ],
    });
    for (const formatted of [
      'Error: Minified React error #423; visit https://reactjs.org/docs/error-decoder.html?invariant=423 for the full message',
      'Error: Uncaught (in promise): ChunkLoadError: Loading chunk 175 failed.',
      'ChunkLoadError: Loading chunk 552 failed.',
    ]) {
      expect(errorMessagesFilter.matches(viewOfEvent({ logentry: { formatted } }), config)).toBe(
        true,
      );
    }
  });

  it('is off without patterns', () => {
    expect(errorMessagesFilter.isEnabled(configWith(['error-message']))).toBe(false);
  });
});
