// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { configWith } from './test-support.js';
import { webCrawlersFilter } from './web-crawlers.js';

const ua = (userAgent: string) =>
  viewOfEvent({ request: { headers: { 'User-Agent': userAgent } } });

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
