/**
 * `/`: the messages, newest first, and a form that posts the postMessage action. The form works
 * without JavaScript (a plain post) and submits in place once the page is hydrated.
 */
import { segment, useActionForm, useActionId } from '@strata/web';
import { MESSAGES_TAG, type Message } from '../messages.js';
import type { AppServices } from '../services.js';

interface HomeData {
  readonly messages: readonly Message[];
}

function MessageForm() {
  // The id of this segment's action (actions/post-message.ts names the segment).
  const actionId = useActionId('postMessage');
  const form = useActionForm(actionId);
  return (
    <form method="post" onSubmit={form.onSubmit} aria-busy={form.pending}>
      <input type="hidden" name="$action" value={actionId} />
      <label>
        Message <input name="text" defaultValue={form.values['text'] ?? ''} required />
      </label>
      {form.fieldErrors['text']?.map((error) => (
        <span key={error} className="field-error">
          {error}
        </span>
      ))}
      <button type="submit" disabled={form.pending}>
        Post
      </button>
    </form>
  );
}

export const homePage = segment<HomeData, AppServices>({
  id: 'home',
  path: '',
  kind: 'page',
  loader({ services, tag }) {
    tag(MESSAGES_TAG);
    return { messages: services.messages.list() };
  },
  component: ({ data }) => (
    <section>
      <h1>Welcome to your Strata app</h1>
      <p>Edit src/pages/home-page.tsx and save: the page reloads with your change.</p>
      <MessageForm />
      <ul className="messages">
        {data.messages.map((message) => (
          <li key={message.id}>{message.text}</li>
        ))}
      </ul>
    </section>
  ),
});
