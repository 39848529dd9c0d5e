/**
 * The app's server action: postMessage adds a message, drops the cached list (its tag) and goes
 * home. It belongs to the home page's segment, whose form reads its public id with
 * `useActionId('postMessage')`.
 */
import { defineAction, type ActionContext } from '@strata/web/server';
import { MESSAGES_TAG } from '../messages.js';
import type { AppServices } from '../services.js';
import { messageInput } from './message-input.js';

export const postMessage = defineAction({
  module: 'app/messages',
  name: 'postMessage',
  segment: 'home',
  input: messageInput,
  async handler(input, { services, revalidate, redirect }: ActionContext<AppServices>) {
    const message = services.messages.add(input.text);
    revalidate(MESSAGES_TAG);
    redirect('/');
    return { ok: true, result: { id: message.id } };
  },
});

/** Every action of the app. */
export const appActions = [postMessage] as const;
