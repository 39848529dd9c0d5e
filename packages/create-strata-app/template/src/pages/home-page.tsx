/**
 * `/`: the messages, newest first, and a form that posts the postMessage action. The form works
 * without JavaScript (a plain post) and submits in place once the page is hydrated.
 */
import { segment, useActionForm } from '@strata/web';
import { MESSAGES_TAG, type Message } from '../messages.js';
import type { AppServices } from '../services.js';

interface HomeData {
  readonly messages: readonly Message[];
  readonly postMessageId: string;
}

function MessageForm({ actionId }: { actionId: string }) {
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
    return { messages: services.messages.list(), postMessageId: services.actionIds.postMessage };
  },
  component: ({ data }) => (
    <section>
      <h1>Welcome to your Strata app</h1>
      <p>Edit src/pages/home-page.tsx and save: the page reloads with your change.</p>
      <MessageForm actionId={data.postMessageId} />
      <ul className="messages">
        {data.messages.map((message) => (
          <li key={message.id}>{message.text}</li>
        ))}
      </ul>
    </section>
  ),
});
