/**
 * Relay's `legacy_browsers` filter with a small User-Agent parser for the families it judges.
 * `default` = minimum major versions IE 10, Safari 6, Opera 15, Android 4, Opera Mini 8; named
 * options filter one range each (`ie_pre_9`, `ie9`, `ie10`, `ie11`, `opera_pre_15`,
 * `opera_mini_pre_8`, `android_pre_4`, `safari_pre_6`, `edge_pre_79`); unknown names never filter.
 */
import type { Filter } from './filter.js';

type Family = 'ie' | 'edge' | 'opera' | 'opera_mini' | 'android' | 'safari' | 'firefox' | 'chrome';

/** A browser family and major version parsed from a User-Agent. */
export interface BrowserVersion {
  readonly family: Family;
  readonly major: number;
}

const RULES: ReadonlyArray<readonly [Family, RegExp]> = [
  ['opera_mini', /Opera Mini\/(\d+)/],
  ['ie', /(?:MSIE |IEMobile\/)(\d+)/],
  ['ie', /Trident\/[\d.]+.*rv:(\d+)/],
  ['edge', /Edge?\/(\d+)/],
  ['opera', /OPR\/(\d+)/],
  ['opera', /Opera\/[\d.]+.*Version\/(\d+)/],
  ['opera', /Opera[/ ](\d+)/],
  ['firefox', /Firefox\/(\d+)/],
  ['chrome', /(?:Chrome|CriOS|Chromium)\/(\d+)/],
  ['android', /Android (\d+)/],
  ['safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari/],
];

/** Parses the browser family and major version; null for anything else. */
export function parseBrowser(userAgent: string): BrowserVersion | null {
  for (const [family, pattern] of RULES) {
    const match = pattern.exec(userAgent);
    if (match?.[1]) return { family, major: Number(match[1]) };
  }
  return null;
}

const DEFAULT_MINIMUM: Partial<Record<Family, number>> = {
  ie: 10,
  safari: 6,
  opera: 15,
  android: 4,
  opera_mini: 8,
};

const NAMED: Readonly<Record<string, (b: BrowserVersion) => boolean>> = {
  ie_pre_9: (b) => b.family === 'ie' && b.major < 9,
  ie9: (b) => b.family === 'ie' && b.major === 9,
  ie10: (b) => b.family === 'ie' && b.major === 10,
  ie11: (b) => b.family === 'ie' && b.major === 11,
  opera_pre_15: (b) => b.family === 'opera' && b.major < 15,
  opera_mini_pre_8: (b) => b.family === 'opera_mini' && b.major < 8,
  android_pre_4: (b) => b.family === 'android' && b.major < 4,
  safari_pre_6: (b) => b.family === 'safari' && b.major < 6,
  edge_pre_79: (b) => b.family === 'edge' && b.major < 79,
};

/** Whether a browser is legacy under the given options. */
export function isLegacyBrowser(browser: BrowserVersion, options: readonly string[]): boolean {
  return options.some((option) => {
    if (option === 'default') return browser.major < (DEFAULT_MINIMUM[browser.family] ?? 0);
    return NAMED[option]?.(browser) ?? false;
  });
}

/** Drops items from legacy browsers. */
export const legacyBrowsersFilter: Filter = {
  id: 'legacy-browsers',
  appliesTo: 'any',
  isEnabled: (config) => config.enabled.has('legacy-browsers') && config.legacyBrowsers.length > 0,
  matches: (item, config) => {
    const browser = item.userAgent ? parseBrowser(item.userAgent) : null;
    return browser !== null && isLegacyBrowser(browser, config.legacyBrowsers);
  },
};
