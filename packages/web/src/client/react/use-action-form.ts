/**
 * Enhances a plain action form: with the router running, submitting calls the action with
 * fetch and keeps the page (its refreshed segments are applied); without JavaScript the same
 * form posts normally and the page is rendered again with the errors. Either way the hook hands
 * the form the messages to show and what the user typed.
 */
import { use, useState, type FormEvent } from 'react';
import { useFormResult } from '../../render/form-result.js';
import type { ActionOutcome } from '../router/submit-action.js';
import { RouterContext } from './router-context.js';

/** Fields a form never sends as input. */
const CONTROL_FIELDS = new Set(['$action']);
const NO_ERRORS: Readonly<Record<string, readonly string[]>> = Object.freeze({});
const NO_VALUES: Readonly<Record<string, string>> = Object.freeze({});

/** What an action form renders from. */
export interface ActionForm {
  /** Submits with fetch; undefined without the router (the form posts normally). */
  readonly onSubmit: ((event: FormEvent<HTMLFormElement>) => void) | undefined;
  readonly pending: boolean;
  /** The last submission's outcome when sent with fetch. */
  readonly outcome: ActionOutcome | null;
  /** Messages by field (`_form` for the whole form) of the last failed submission, sent either way. */
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  /** What was typed, when the page is shown again after a failed post without JavaScript. */
  readonly values: Readonly<Record<string, string>>;
}

/** The form's submit handler, whether it is submitting, the last outcome and what to show. */
export function useActionForm(actionId: string): ActionForm {
  const router = use(RouterContext);
  const posted = useFormResult(actionId);
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const values = posted?.values ?? NO_VALUES;
  // The latest submission decides: one sent with fetch replaces what a plain post showed.
  const fieldErrors = outcome
    ? outcome.ok
      ? NO_ERRORS
      : outcome.fieldErrors
    : (posted?.fieldErrors ?? NO_ERRORS);
  if (!router) return { onSubmit: undefined, pending: false, outcome: null, fieldErrors, values };
  return {
    pending,
    outcome,
    fieldErrors,
    values,
    onSubmit(event) {
      event.preventDefault();
      const input: Record<string, string> = {};
      for (const [name, value] of new FormData(event.currentTarget))
        if (!CONTROL_FIELDS.has(name) && typeof value === 'string') input[name] = value;
      setPending(true);
      router.submitAction(actionId, input).then(
        (result) => {
          setOutcome(result);
          setPending(false);
        },
        () => {
          setOutcome({
            ok: false,
            fieldErrors: { _form: ['The action could not be sent; check your connection.'] },
          });
          setPending(false);
        },
      );
    },
  };
}
