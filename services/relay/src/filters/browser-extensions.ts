/**
 * Relay's `browser_extensions` filter: the first exception's value against known extension
 * noise, and the URL of its last frame that is not `<anonymous>`/`[native code]` against
 * extension and third-party script sources.
 */
import { enabledById, type Filter } from './filter.js';

const VALUES = new RegExp(
  [
    'top\\.GLOBALS',
    'originalCreateNotification',
    'canvas\\.contentDocument',
    'MyApp_RemoveAllHighlights',
    'http://tt\\.epicplay\\.com',
    "Can't find variable: ZiteReader",
    'jigsaw is not defined',
    'ComboSearch is not defined',
    'http://loading\\.retry\\.widdit\\.com/',
    'atomicFindClose',
    'fb_xd_fragment',
    'bmi_SafeAddOnload',
    'EBCallBackMessageReceived',
    '_gCrWeb',
    'conduitPage',
    "null is not an object \\(evaluating 'elt\\.parentNode'\\)",
    'plugin\\.setSuspendState is not a function',
    'Extension context invalidated',
    'webkit-masked-url:',
    "can't access dead object",
  ].join('|'),
  'i',
);

const SOURCES = new RegExp(
  [
    'graph\\.facebook\\.com',
    'connect\\.facebook\\.net',
    'eatdifferent\\.com\\.woopra-ns\\.com',
    'static\\.woopra\\.com/js/woopra\\.js',
    '^chrome(?:-extension)?://',
    '^moz-extension://',
    '^safari(?:-web)?-extension://',
    'webkit-masked-url',
    '127\\.0\\.0\\.1:4001/isrunning',
    'webappstoolbarba\\.texthelp\\.com/',
    'metrics\\.itunes\\.apple\\.com\\.edgesuite\\.net/',
    'kaspersky-labs\\.com',
  ].join('|'),
  'i',
);

const IGNORED_FRAMES = new Set(['<anonymous>', '[native code]']);

/** Drops errors raised by browser extensions and injected third-party scripts. */
export const browserExtensionsFilter: Filter = {
  id: 'browser-extensions',
  appliesTo: 'error',
  isEnabled: enabledById('browser-extensions'),
  matches: (item) => {
    const first = item.exceptions[0];
    if (!first) return false;
    if (first.value !== undefined && VALUES.test(first.value)) return true;
    const frame = first.frameUrls.findLast((url) => !IGNORED_FRAMES.has(url));
    return frame !== undefined && SOURCES.test(frame);
  },
};
