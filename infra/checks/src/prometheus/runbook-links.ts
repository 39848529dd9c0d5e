/**
 * Every alert carries what whoever it wakes needs: a severity the team acts on (`page`: now,
 * `ticket`: in working hours), a summary, and a `runbook_url` that lands on its own section of
 * the runbooks, relative to the repository. Pure: takes the rules and the runbook's Markdown.
 */
import type { AlertRule } from './rule-files.js';

export const SEVERITIES: readonly string[] = ['page', 'ticket'];

/**
 * The anchors GitHub gives the headings of `markdown`: lowercased, punctuation other than `-`
 * and `_` dropped, spaces made `-`. Headings inside fenced code are not headings.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const anchor = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    anchors.add(anchor);
  }
  return anchors;
}

/** The level-3 headings of `markdown` that name an alert (`### StrataSomething`). */
export function alertHeadings(markdown: string): string[] {
  return [...markdown.matchAll(/^###\s+(Strata\w+)\s*$/gm)].map((match) => match[1] ?? '');
}

/** What is wrong with the alerts' labels and links (empty: nothing). */
export function runbookProblems(
  alerts: readonly AlertRule[],
  runbookPath: string,
  markdown: string,
): string[] {
  const anchors = headingAnchors(markdown);
  const problems: string[] = [];
  for (const alert of alerts) {
    const where = `${alert.alert} (${alert.file})`;
    const severity = alert.labels['severity'];
    if (!severity || !SEVERITIES.includes(severity))
      problems.push(`${where}: severity ${severity ?? '(none)'} is not one of ${SEVERITIES}`);
    if (!alert.annotations['summary']) problems.push(`${where}: no summary`);
    const url = alert.annotations['runbook_url'] ?? '';
    const [path, anchor] = url.split('#');
    if (path !== runbookPath || !anchor)
      problems.push(`${where}: runbook_url ${url || '(none)'} is not ${runbookPath}#<section>`);
    else if (!anchors.has(anchor))
      problems.push(`${where}: ${runbookPath} has no section #${anchor}`);
  }
  const names = new Set(alerts.map((alert) => alert.alert));
  for (const heading of alertHeadings(markdown))
    if (!names.has(heading)) problems.push(`${runbookPath}: section ${heading} is no alert`);
  return problems;
}
