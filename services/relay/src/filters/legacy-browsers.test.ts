// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { isLegacyBrowser, legacyBrowsersFilter, parseBrowser } from './legacy-browsers.js';
import { configWith } from './test-support.js';

const legacyItem = (userAgent: string) =>
  viewOfEvent({ request: { headers: { 'user-agent': userAgent } } });

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
