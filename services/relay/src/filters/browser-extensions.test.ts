// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { browserExtensionsFilter } from './browser-extensions.js';
import { configWith, errorWith } from './test-support.js';

const withFrame = (url: string) =>
  viewOfEvent({
    exception: {
      values: [{ type: 'Error', value: 'x', stacktrace: { frames: [{ abs_path: url }] } }],
    },
  });

describe('browser-extensions', () => {
  const config = configWith(['browser-extensions']);
  it.each([
    'https://graph.facebook.com/',
    'https://connect.facebook.net/en_US/sdk.js',
    'https://eatdifferent.com.woopra-ns.com/main.js',
    'https://static.woopra.com/js/woopra.js',
    'chrome-extension://my-extension/or/something',
    'chrome://my-extension/or/something',
    'moz-extension://my-extension/or/something',
    'safari-extension://my-extension/or/something',
    'safari-web-extension://my-extension/or/something',
    '127.0.0.1:4001/isrunning',
    'webappstoolbarba.texthelp.com/',
    'http://metrics.itunes.apple.com.edgesuite.net/itunespreview/itunes/browser:firefo',
    'https://fscr.kaspersky-labs.com/B-9B72-7B7/main.js',
    'webkit-masked-url:',
  ])('drops source %s', (url) => {
    expect(browserExtensionsFilter.matches(withFrame(url), config)).toBe(true);
  });

  it('skips <anonymous> and [native code] frames', () => {
    const item = viewOfEvent({
      exception: {
        values: [
          {
            value: 'x',
            stacktrace: {
              frames: [
                { abs_path: 'https://static.woopra.com/js/woopra.js' },
                { abs_path: '<anonymous>' },
                { abs_path: '[native code]' },
              ],
            },
          },
        ],
      },
    });
    expect(browserExtensionsFilter.matches(item, config)).toBe(true);
  });

  it.each([
    'what does conduitPage even do',
    "null is not an object (evaluating 'elt.parentNode')",
    'some error on top.GLOBALS',
    'biiig problem on originalCreateNotification',
    'canvas.contentDocument',
    'MyApp_RemoveAllHighlights',
    'http://tt.epicplay.com/not/very/good',
    "Can't find variable: ZiteReader, I wonder why?",
    "jigsaw is not defined and I'm not happy about it",
    'ComboSearch is not defined',
    'http://loading.retry.widdit.com/some/obscure/error',
    'atomicFindClose has messed up',
    'bad news, we have a fb_xd_fragment',
    'oh no! we have a case of: bmi_SafeAddOnload, again !',
    'watch out ! EBCallBackMessageReceived',
    'error _gCrWeb',
    'plugin.setSuspendState is not a function',
    'Extension context invalidated',
    'useless error webkit-masked-url: please filter',
    "TypeError: can't access dead object because dead stuff smells bad",
  ])('drops value %j', (value) => {
    expect(browserExtensionsFilter.matches(errorWith([['Error', value]]), config)).toBe(true);
  });

  it('keeps reasonable sources and values, and everything when disabled', () => {
    expect(
      browserExtensionsFilter.matches(withFrame('https://some/resonable/source.js'), config),
    ).toBe(false);
    expect(
      browserExtensionsFilter.matches(
        errorWith([['Error', 'some perfectly reasonable value']]),
        config,
      ),
    ).toBe(false);
    expect(browserExtensionsFilter.isEnabled(configWith([]))).toBe(false);
  });
});
