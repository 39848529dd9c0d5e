/**
 * Golden files of rendered scenarios: helm's exact output, committed under
 * infra/helm/examples/<scenario>/rendered.yaml so a review shows what a chart change renders.
 * With UPDATE_GOLDEN=1 the comparison writes the file instead.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type GoldenOutcome =
  | { readonly status: 'matches' | 'updated' }
  | { readonly status: 'differs'; readonly expected: string | undefined };

export function updatingGoldens(): boolean {
  return process.env['UPDATE_GOLDEN'] === '1';
}

/** Compares `rendered` with the golden file, or rewrites it under UPDATE_GOLDEN=1. */
export async function compareWithGolden(file: string, rendered: string): Promise<GoldenOutcome> {
  if (updatingGoldens()) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, rendered);
    return { status: 'updated' };
  }
  const expected = await readFile(file, 'utf8').catch(() => undefined);
  return expected === rendered ? { status: 'matches' } : { status: 'differs', expected };
}
