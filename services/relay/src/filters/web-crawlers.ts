/** Relay's `web_crawlers` filter: known bots and crawlers by User-Agent, with Relay's allow-list. */
import { enabledById, type Filter } from './filter.js';

const CRAWLERS = new RegExp(
  [
    'Mediapartners-Google',
    'AdsBot-Google',
    'Googlebot',
    'FeedFetcher-Google',
    'Storebot-Google',
    'BingBot',
    'BingPreview',
    'Baiduspider',
    'Slurp',
    'Sogou',
    'facebook',
    'meta-',
    'ia_archiver',
    'bots?[/\\s\\);]',
    'bots?$',
    'spider[/\\s\\);]',
    'spider$',
    'Slack',
    'Calypso AppCrawler',
    'pingdom',
    'lyticsbot',
    'AWS Security Scanner',
    'HubSpot Crawler',
    'Bytespider',
    'Better Uptime',
    'Cloudflare-Healthchecks',
    'GTmetrix',
    'BrightEdgeOnCrawl',
    'ELB-HealthChecker',
    'naver\\.me/spd',
    'ClaudeBot',
    'CCBot',
    'OAI-SearchBot',
    'GPTBot',
    'PerplexityBot',
    'Applebot',
    'DuckDuckBot',
  ].join('|'),
  'i',
);

const ALLOWED = /Slackbot 1\.\d|SentryUptimeBot|ChatGPT-User/i;

/** Drops items sent from crawlers' browsers. */
export const webCrawlersFilter: Filter = {
  id: 'web-crawlers',
  appliesTo: 'any',
  isEnabled: enabledById('web-crawlers'),
  matches: (item) =>
    item.userAgent !== undefined && CRAWLERS.test(item.userAgent) && !ALLOWED.test(item.userAgent),
};
