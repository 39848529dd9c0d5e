/**
 * The add-note form: plain HTML that posts the action (works without JavaScript), enhanced to
 * submit in place when the router runs; shows the messages of a failed submission either way.
 */
import { useActionForm, useActionId } from '@strata/web';
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

/** The form, posting the list page's `addNote` action. */
export function NoteForm() {
  const actionId = useActionId('addNote');
  // Errors come back in place (fetch), or with the page rendered again (a plain post).
  const form = useActionForm(actionId);
  const errors = form.fieldErrors;
  return (
    <form method="post" className="note-form" onSubmit={form.onSubmit} aria-busy={form.pending}>
      <input type="hidden" name="$action" value={actionId} />
      <Errors messages={errors['_form']} />
      <label>
        Your name{' '}
        <input
          name="author"
          defaultValue={form.values['author'] ?? ''}
          required
          maxLength={NOTE_LIMITS.author}
        />
        <Errors messages={errors['author']} />
      </label>
      <label>
        Note{' '}
        <textarea
          name="text"
          defaultValue={form.values['text'] ?? ''}
          required
          rows={3}
          maxLength={NOTE_LIMITS.text}
        />
        <Errors messages={errors['text']} />
      </label>
      <button type="submit" disabled={form.pending}>
        Add note
      </button>
    </form>
  );
}
