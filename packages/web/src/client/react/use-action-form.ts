/**
 * Enhances a plain action form: with the router running, submitting calls the action with
 * fetch and keeps the page (its refreshed segments are applied); without JavaScript the same
 * form posts normally. Field errors come back either way (this hook, or the re-rendered page).
 */
import { use, useState, type FormEvent } from 'react';
import type { ActionOutcome } from '../router/submit-action.js';
import { RouterContext } from './router-context.js';

/** Fields a form never sends as input. */
const CONTROL_FIELDS = new Set(['$action']);

/** The form's submit handler, whether it is submitting, and the last outcome. */
export function useActionForm(actionId: string): {
  onSubmit: ((event: FormEvent<HTMLFormElement>) => void) | undefined;
  pending: boolean;
  outcome: ActionOutcome | null;
} {
  const router = use(RouterContext);
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  if (!router) return { onSubmit: undefined, pending: false, outcome: null };
  return {
    pending,
    outcome,
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
