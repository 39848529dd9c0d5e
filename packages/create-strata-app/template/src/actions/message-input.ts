/**
 * The postMessage action's input: what a browser may send, as form strings or JSON.
 */
import { z } from 'zod';

export const MESSAGE_MAX = 280;

export const messageInput = z.object({
  text: z
    .string({ error: 'Write a message' })
    .trim()
    .min(1, 'Write a message')
    .max(MESSAGE_MAX, `Messages are at most ${MESSAGE_MAX} characters`),
});
