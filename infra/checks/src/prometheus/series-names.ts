/**
 * The metric names a PromQL expression selects, found by a small tokenizer rather than a full
 * parser: an identifier is a metric name unless it calls a function or aggregation, is a
 * keyword, sits inside a label matcher `{…}` or a range `[…]`, or lists labels after `by`,
 * `without`, `on`, `ignoring`, `group_left` or `group_right`. `{__name__="x"}` names `x`. Pure.
 */

/** Words PromQL reserves between operands (its lexer takes them in any case). */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'atan2',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** Keywords followed by a parenthesised list of label names, not of expressions. */
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

type Token =
  | { readonly kind: 'identifier'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'punctuation'; readonly text: string }
  | { readonly kind: 'other' };

// Order matters: comments and strings first (they may hold anything), then durations and
// numbers before identifiers (`5m` is a duration, not `5` then `m`).
const TOKEN_PATTERN = new RegExp(
  [
    /#[^\n]*/.source, // a comment, to the end of its line
    /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/.source, // string literals
    /(?:\d+(?:ms|[smhdwy]))+/.source, // durations: 5m, 1h30m
    /0x[\da-f]+|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/.source, // numbers
    /[a-z_:][\w:]*/.source, // identifiers: names, functions, keywords
    /[(){}[\],]/.source, // punctuation the walk below follows
    /\s+/.source,
    /[^\s\w(){}[\],"'`#]+/.source, // operators
  ].join('|'),
  'giy',
);

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  TOKEN_PATTERN.lastIndex = 0;
  while (TOKEN_PATTERN.lastIndex < expression.length) {
    const start = TOKEN_PATTERN.lastIndex;
    const match = TOKEN_PATTERN.exec(expression);
    if (!match) throw new Error(`cannot read PromQL at ${start}: ${expression.slice(start)}`);
    const text = match[0];
    if (/^\s|^#/.test(text)) continue;
    if (/^["'`]/.test(text)) tokens.push({ kind: 'string', text: unquote(text) });
    else if (/^[a-z_:]/i.test(text)) tokens.push({ kind: 'identifier', text });
    else if (/^[(){}[\],]$/.test(text)) tokens.push({ kind: 'punctuation', text });
    else tokens.push({ kind: 'other' });
  }
  return tokens;
}

function unquote(literal: string): string {
  const body = literal.slice(1, -1);
  return literal.startsWith('`') ? body : body.replace(/\\(.)/g, '$1');
}

/** The metric names `expression` selects, sorted, each once. Throws on text it cannot read. */
export function seriesNames(expression: string): string[] {
  const tokens = tokenize(expression);
  const names = new Set<string>();
  let braces = 0;
  let brackets = 0;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (token.kind === 'punctuation') {
      if (token.text === '{') braces++;
      else if (token.text === '}') braces--;
      else if (token.text === '[') brackets++;
      else if (token.text === ']') brackets--;
      continue;
    }
    if (token.kind !== 'identifier' || brackets > 0) continue;
    if (braces > 0) {
      // Inside a matcher: only `__name__ = "…"` names a metric.
      const value = tokens[index + 2];
      if (token.text === '__name__' && value?.kind === 'string') names.add(value.text);
      continue;
    }
    const word = token.text.toLowerCase();
    if (LABEL_LISTS.has(word) && next?.kind === 'punctuation' && next.text === '(') {
      index = closingParenthesis(tokens, index + 1);
      continue;
    }
    if (KEYWORDS.has(word)) continue;
    // A function or aggregation: `rate(`, `sum (`, `sum by (…) (`.
    if (next?.kind === 'punctuation' && next.text === '(') continue;
    if (next?.kind === 'identifier' && LABEL_LISTS.has(next.text.toLowerCase())) continue;
    names.add(token.text);
  }
  return [...names].sort();
}

/** Index of the `)` closing the `(` at `open`. */
function closingParenthesis(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind !== 'punctuation') continue;
    if (token.text === '(') depth++;
    else if (token.text === ')' && --depth === 0) return index;
  }
  throw new Error('unbalanced parentheses in PromQL');
}

/** A rule's name and expression, as far as the names it uses are concerned. */
export interface NamedExpression {
  /** The recording rule's `record` (it defines that name), absent for an alert. */
  readonly record?: string | undefined;
  readonly expr: string;
}

/**
 * The series names the rules read that no rule among them records: what the scraped targets
 * (or Prometheus itself, for `up`) must supply. Sorted, each once.
 */
export function externalSeriesNames(rules: readonly NamedExpression[]): string[] {
  const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
  const used = new Set(rules.flatMap((rule) => seriesNames(rule.expr)));
  return [...used].filter((name) => !recorded.has(name)).sort();
}
