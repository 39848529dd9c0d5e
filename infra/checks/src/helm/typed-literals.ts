/**
 * Writes rendered objects as TypeScript: each one an object literal typed with the matching
 * kubernetes-types type. Type-checking that source refuses what the API schema validators let
 * through: a field the type does not declare (TypeScript's excess-property check on object
 * literals), at any depth. Pure: the source text and where each object starts in it.
 */
import { apiTypeOf } from './api-types.js';
import type { RenderedObject } from './manifests.js';

export interface TypedLiteralSource {
  readonly text: string;
  /** First line (1-based) of each object's literal, in the order given. */
  readonly startLines: readonly number[];
}

/** The module text; objects whose kind is not on the allow-list are left out (api-schema.ts refuses them). */
export function typedLiteralSource(objects: readonly RenderedObject[]): TypedLiteralSource {
  const imports: string[] = [];
  const declarations: string[] = [];
  const startLines: number[] = [];
  const aliases = new Map<string, string>();
  for (const { object } of objects) {
    const type = apiTypeOf(object);
    if (!type) {
      startLines.push(0);
      continue;
    }
    const key = `${type.typeModule}#${type.typeName}`;
    let alias = aliases.get(key);
    if (!alias) {
      alias = `T${aliases.size}`;
      aliases.set(key, alias);
      imports.push(`import type { ${type.typeName} as ${alias} } from '${type.typeModule}';`);
    }
    declarations.push(
      `export const object${declarations.length}: ${alias} = ${JSON.stringify(object, null, 2)};`,
    );
    startLines.push(-1);
  }
  // Lines are known only once every import is written: number the declarations after them.
  let line = imports.length + 1;
  let declaration = 0;
  for (let index = 0; index < startLines.length; index++) {
    if (startLines[index] === 0) continue;
    startLines[index] = line;
    line += (declarations[declaration] ?? '').split('\n').length;
    declaration++;
  }
  return { text: [...imports, ...declarations].join('\n') + '\n', startLines };
}

/** The index of the object a 1-based line of the source belongs to, or -1. */
export function objectAtLine(source: TypedLiteralSource, line: number): number {
  let found = -1;
  source.startLines.forEach((start, index) => {
    if (start > 0 && start <= line) found = index;
  });
  return found;
}
