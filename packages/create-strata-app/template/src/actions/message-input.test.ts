import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX, messageInput } from './message-input.js';

describe('messageInput', () => {
  it('trims a message', () => {
    expect(messageInput.parse({ text: '  hi  ' })).toEqual({ text: 'hi' });
  });

  it('refuses an empty or overlong message with a readable reason', () => {
    expect(messageInput.safeParse({ text: '   ' }).error?.issues[0]?.message).toBe(
      'Write a message',
    );
    expect(messageInput.safeParse({ text: 'x'.repeat(MESSAGE_MAX + 1) }).success).toBe(false);
  });
});
