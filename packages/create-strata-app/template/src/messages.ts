/**
 * The messages the home page lists and its form adds, kept in memory.
 */

export interface Message {
  readonly id: number;
  readonly text: string;
}

/** The cache tag of the list: loaders that read it `tag` it, the action `revalidate`s it. */
export const MESSAGES_TAG = 'messages';

export class MessageBoard {
  readonly #messages: Message[] = [{ id: 1, text: 'Hello from Strata!' }];

  list(): readonly Message[] {
    return [...this.#messages].reverse();
  }

  add(text: string): Message {
    const message = { id: this.#messages.length + 1, text };
    this.#messages.push(message);
    return message;
  }
}
