// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { browserExtensionsFilter } from './browser-extensions.js';
import { clientIpsFilter } from './client-ips.js';
import { errorMessagesFilter } from './error-messages.js';
import { globMatches } from './glob.js';
import { ipMatches } from './ip-address.js';
import { isLegacyBrowser, legacyBrowsersFilter, parseBrowser } from './legacy-browsers.js';
import { localhostFilter } from './localhost.js';
import { releasesFilter } from './releases.js';
import { configWith, errorWith } from './test-support.js';
import { transactionNamesFilter } from './transaction-names.js';
import { webCrawlersFilter } from './web-crawlers.js';

const withFrame = (url: string) =>
  viewOfEvent({
    exception: {
      values: [{ type: 'Error', value: 'x', stacktrace: { frames: [{ abs_path: url }] } }],
    },
  });
const at = (url: string) => viewOfEvent({ request: { url } });
const ua = (userAgent: string) =>
  viewOfEvent({ request: { headers: { 'User-Agent': userAgent } } });
const legacyItem = (userAgent: string) =>
  viewOfEvent({ request: { headers: { 'user-agent': userAgent } } });

describe('glob (Relay glob3 rules)', () => {
  it.each([
    ['foo*', 'foobarblub', true],
    ['*blub', 'foobarblub', true],
    ['*bar*', 'foobarblub', true],
    ['*foo*', 'foo\n', true],
    ['foo*bar', 'foo\nbar', true],
    ['1.18.[0-4].*', '1.18.4.2153-2aa83397b', true],
    ['1.18.[0-4].*', '1.18.5.2153-2aa83397b', false],
    ['1.18.[!0-4].*', '1.18.5.2153-2aa83397b', true],
    ['1.18.[!0-4].*', '1.18.4.2153-2aa83397b', false],
    ['!1.18.4.*', '1.18.4.2153', false],
    [
      '/api/0/organizations/\\{organization_slug\\}/event*',
      '/api/0/organizations/{organization_slug}/event/foobar',
      true,
    ],
    ['FOO*', 'foobar', true],
    ['', 'anything', false],
    ['*', '', false],
    ['{a,b}c', 'bc', true],
  ])('%j vs %j → %s', (pattern, input, expected) => {
    expect(globMatches(pattern, input)).toBe(expected);
  });
});

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

describe('localhost', () => {
  const config = configWith(['localhost']);
  it.each(['127.0.0.1', '::1'])('drops user ip %s', (ip) => {
    expect(localhostFilter.matches(viewOfEvent({ user: { ip_address: ip } }), config)).toBe(true);
  });
  it.each(['133.12.12.1', '2001:db8:0:0:0:ff00:42:8329'])('keeps user ip %s', (ip) => {
    expect(localhostFilter.matches(viewOfEvent({ user: { ip_address: ip } }), config)).toBe(false);
  });
  it.each(['127.0.0.1', 'localhost', 'foo.localhost', 'foo.bar.baz.localhost'])(
    'drops domain %s',
    (domain) => {
      expect(localhostFilter.matches(at(`http://${domain}:8080/`), config)).toBe(true);
    },
  );
  it.each([
    'my.dom.com',
    '123.123.123.44',
    'localhost.com',
    'foolocalhost',
    'localhostbar',
    'alocalhostgoesintoabar',
  ])('keeps domain %s', (domain) => {
    expect(localhostFilter.matches(at(`http://${domain}:8080/`), config)).toBe(false);
  });
  it('drops file URLs, keeps web URLs', () => {
    expect(
      localhostFilter.matches(
        at('file:///Users/Maisey/work/squirrelchasers/src/leaderboard.html'),
        config,
      ),
    ).toBe(true);
    expect(localhostFilter.matches(at('http://www.squirrelchasers.com/leaderboard'), config)).toBe(
      false,
    );
  });
  it.each([
    ['host', 'localhost:3000', true],
    ['x-forwarded-host', '127.0.0.1:3000', true],
    ['host', 'localhost.sentry.io:3000', false],
    ['x-forwarded-for', '127.0.0.1', true],
    ['x-forwarded-for', '::1', true],
  ])('header %s: %s → %s', (name, value, dropped) => {
    expect(
      localhostFilter.matches(viewOfEvent({ request: { headers: { [name]: value } } }), config),
    ).toBe(dropped);
  });
  it('keeps an empty event', () => {
    expect(localhostFilter.matches(viewOfEvent({}), config)).toBe(false);
  });
});

describe('web-crawlers', () => {
  const config = configWith(['web-crawlers']);
  it.each([
    'Googlebot',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'facebookcatalog/1.0',
    'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'meta-externalfetcher/1.1',
    'bots ',
    'bots;',
    'bots)',
    'spider ',
    'spider;',
    'spider)',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Slack-ImgProxy 0.19 (+https://api.slack.com/robots)',
    'Twitterbot/1.0',
    'ELB-HealthChecker/2.0',
    'Mozilla/5.0; ClaudeBot',
    'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  ])('drops %j', (userAgent) => {
    expect(webCrawlersFilter.matches(ua(userAgent), config)).toBe(true);
  });
  it.each([
    'some user agent',
    'IE',
    'ie',
    'opera',
    'safari',
    'APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)',
    'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2228.0 Safari/537.36',
    'Slackbot 1.0(+https://api.slack.com/robots)',
    'SentryUptimeBot/1.0 (+http://docs.sentry.io/product/alerts/uptime-monitoring/)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  ])('keeps %j', (userAgent) => {
    expect(webCrawlersFilter.matches(ua(userAgent), config)).toBe(false);
  });
});

describe('legacy-browsers', () => {
  const filtered = [
    'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.0; Trident/4.0)',
    'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)',
    'Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Trident/5.0; IEMobile/9.0)',
    'Opera/9.80 (J2ME/MIDP; Opera Mini/7.0.32796/59.323; U; fr) Presto/2.12.423 Version/12.16',
    'Mozilla/5.0 (Macintosh; U; Intel Mac OS X 1063; tr-DE) AppleWebKit/533.16 (KHTML like Gecko) Version/5.0 Safari/533.16',
    'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/27.0.1453.94 Safari/537.36 OPR/14.0.1116.4',
    'Mozilla/5.0 (Linux; U; Android 3.2; nl-nl; GT-P6800 Build/HTJ85B) AppleWebKit/534.13 (KHTML, like Gecko) Version/4.0 Safari/534.13',
  ];
  const kept = [
    'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)',
    'Mozilla/5.0 (iPad; CPU OS 6_0 like Mac OS X) AppleWebKit/536.26 (KHTML, like Gecko) Version/6.0 Mobile/10A5355d Safari/8536.25',
    'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/28.0.1500.52 Safari/537.36 OPR/15.0.1147.100',
    'Mozilla/5.0 (Linux; U; Android 4.1.1; en-us; Nexus S Build/JRO03E) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
    'Opera/9.80 (J2ME/MIDP; Opera Mini/8.0.35626/37.8918; U; en) Presto/2.12.423 Version/12.16',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  ];
  it.each(filtered)('default drops %j', (userAgent) => {
    expect(
      legacyBrowsersFilter.matches(legacyItem(userAgent), configWith(['legacy-browsers'])),
    ).toBe(true);
  });
  it.each(kept)('default keeps %j', (userAgent) => {
    expect(
      legacyBrowsersFilter.matches(legacyItem(userAgent), configWith(['legacy-browsers'])),
    ).toBe(false);
  });
  it('applies named options and ignores unknown ones', () => {
    const ie11 = parseBrowser('Mozilla/5.0 (Windows NT 6.3; Trident/7.0; rv:11.0) like Gecko');
    expect(ie11).toEqual({ family: 'ie', major: 11 });
    expect(isLegacyBrowser(ie11!, ['ie11'])).toBe(true);
    expect(isLegacyBrowser(ie11!, ['default'])).toBe(false);
    expect(isLegacyBrowser(ie11!, ['no_such_option'])).toBe(false);
  });
});

describe('releases, transaction names and client IPs', () => {
  it.each<[string[], boolean]>([
    [['1.3.0', '1.2.3', '1.3.1'], true],
    [['1.3.0', '1.2.*', '1.3.1'], true],
    [['1.3.0', '1.3.*', '1.*'], true],
    [['*', '1.3.0', '1.3.*'], true],
    [['1.3.0', '1.2.4', '1.3.1'], false],
    [['1.4.0', '1.3.*', '3.*'], false],
    [[], false],
    [['1.1.1', '1.1.2', '1.3.1'], false],
  ])('release 1.2.3 vs %j → %s', (releases, dropped) => {
    const config = configWith(['release-version'], { releases });
    const matched =
      releasesFilter.isEnabled(config) &&
      releasesFilter.matches(viewOfEvent({ release: '1.2.3' }), config);
    expect(matched).toBe(dropped);
  });

  const health = configWith(['filtered-transaction'], {
    transactionNames: ['*healthcheck*', '*/health'],
  });
  it.each([
    ['a/b/healthcheck/c', true],
    ['a_HEALTHCHECK_b', true],
    ['healthcheck', true],
    ['/health', true],
    ['a/HEALTH', true],
    ['bad', false],
    ['/bad', false],
    ['a/b/c', false],
    ['health', false],
    ['healthz', false],
    ['/health/', false],
    ['/healthz/', false],
    ['/healthx', false],
    ['/healthzx', false],
  ])('transaction %j → %s', (name, dropped) => {
    expect(
      transactionNamesFilter.matches(
        viewOfEvent({ type: 'transaction', transaction: name }),
        health,
      ),
    ).toBe(dropped);
  });

  it.each([
    ['1.2.3.4', [], false],
    ['122.33.230.14', ['122.33.230.14'], true],
    ['aaaa:bbbb::cccc', ['aaaa:bbbb::cccc'], true],
    ['aaaa:bbbb::ccce', ['aaaa:bbbb::cccc'], false],
    ['122.33.230.1', ['122.33.230.0/30'], true],
    ['122.33.230.2', ['122.33.230.0/30'], true],
    ['122.33.230.4', ['122.33.230.0/30'], false],
    ['122.33.230.5', ['122.33.230.4/30'], true],
    ['a:b:c::1', ['a:b:c::0/126'], true],
    ['a:b:c::2', ['a:b:c::0/126'], true],
    ['a:b:c::4', ['a:b:c::0/126'], false],
    ['a:b:c::5', ['a:b:c::4/126'], true],
    ['127.0.0.1', ['127.0.0.0/8'], true],
    ['127.0.0.1', ['0.0.0.0', '192.168.1.1', '10.0.0.0/8'], false],
    ['127.0.0.1', ['lol/bar'], false],
  ])('client ip %s in %j → %s', (ip, entries, dropped) => {
    expect(entries.some((entry) => ipMatches(ip, entry))).toBe(dropped);
    const config = configWith(['ip-address'], { clientIps: entries });
    const item = viewOfEvent({}, { clientIp: ip });
    expect(clientIpsFilter.isEnabled(config) && clientIpsFilter.matches(item, config)).toBe(
      dropped,
    );
  });
});
