/**
 * The add-note form: plain HTML that posts the action (works without JavaScript), enhanced to
 * submit in place when the router runs; shows the messages of a failed submission either way.
 */
import { useActionForm, useFormResult } from '@strata/web';
import { NOTE_LIMITS } from '../domain/note-limits.js';

function Errors({ messages }: { messages: readonly string[] | undefined }) {
  return messages?.length ? (
    <>
      {messages.map((message) => (
        <span key={message} className="field-error">
          {message}
        </span>
      ))}
    </>
  ) : null;
}

/** The form, posting the action whose public id is `actionId`. */
export function NoteForm({ actionId }: { actionId: string }) {
  // Without JavaScript: the page rendered again with the errors and what was typed.
  const failed = useFormResult(actionId);
  const enhanced = useActionForm(actionId);
  const errors =
    (enhanced.outcome && !enhanced.outcome.ok
      ? enhanced.outcome.fieldErrors
      : failed?.fieldErrors) ?? {};
  return (
    <form
      method="post"
      className="note-form"
      onSubmit={enhanced.onSubmit}
      aria-busy={enhanced.pending}
    >
      <input type="hidden" name="$action" value={actionId} />
      <Errors messages={errors['_form']} />
      <label>
        Your name{' '}
        <input
          name="author"
          defaultValue={failed?.values['author'] ?? ''}
          required
          maxLength={NOTE_LIMITS.author}
        />
        <Errors messages={errors['author']} />
      </label>
      <label>
        Note{' '}
        <textarea
          name="text"
          defaultValue={failed?.values['text'] ?? ''}
          required
          rows={3}
          maxLength={NOTE_LIMITS.text}
        />
        <Errors messages={errors['text']} />
      </label>
      <button type="submit" disabled={enhanced.pending}>
        Add note
      </button>
    </form>
  );
}
