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

/** JSON.stringify, safe to embed in an inline script. */
export function jsonForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c] ?? c);
}
