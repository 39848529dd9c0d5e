/**
 * JSON that can sit inside an HTML <script> element: `<`, `>`, `&` and the line separators
 * U+2028/U+2029 are escaped, so a value containing `</script>` or `<!--` cannot end the script
 * or change how the HTML parser reads it.
 */

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

const UNSAFE = /[<>&\u2028\u2029]/g;

/** JSON.stringify, safe to embed in an inline script. */
export function jsonForScript(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  // Most documents' data has none of them: five indexOf scans (memchr-fast, and a one-byte
  // string cannot hold U+2028) cost a fraction of a regex pass over ~20 KB of JSON.
  return needsEscaping(json) ? json.replace(UNSAFE, (c) => ESCAPES[c] ?? c) : json;
}

const UNSAFE_CHARACTERS = Object.keys(ESCAPES);

function needsEscaping(json: string): boolean {
  for (const character of UNSAFE_CHARACTERS) if (json.includes(character)) return true;
  return false;
}
