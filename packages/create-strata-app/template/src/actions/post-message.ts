/**
 * The app's server action and how its public id reaches the pages: everything about actions is
 * in this file. postMessage adds a message, drops the cached list (its tag) and goes home.
 */
import { defineAction, type ActionContext, type AppHost } from '@strata/web/server';
import { MESSAGES_TAG } from '../messages.js';
import type { AppServices } from '../services.js';
import { messageInput } from './message-input.js';

export const postMessage = defineAction({
  module: 'app/messages',
  name: 'postMessage',
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

/** The ids the host derived for `appActions`, for the pages' forms. */
export function actionIdsFrom(host: AppHost): AppServices['actionIds'] {
  const postMessageId = host.actionIds['postMessage'];
  // The host derives one id per action; a missing one would post forms nowhere.
  if (!postMessageId) throw new Error('The host gave no action id for postMessage');
  return { postMessage: postMessageId };
}
