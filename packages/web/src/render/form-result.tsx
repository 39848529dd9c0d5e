/**
 * The outcome of the last form submission that failed validation, for forms posted without
 * JavaScript: the page is rendered again with the errors and the values the user typed.
 */
import { createContext, use } from 'react';

/** A failed submission. */
export interface FormResult {
  readonly action: string;
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  readonly values: Readonly<Record<string, string>>;
}

/** Provides the failed submission (or null) to the page. */
export const FormResultContext = createContext<FormResult | null>(null);

/** The failed submission of `actionId`, if the page is being shown again because of it. */
export function useFormResult(actionId: string): FormResult | null {
  const result = use(FormResultContext);
  return result?.action === actionId ? result : null;
}
