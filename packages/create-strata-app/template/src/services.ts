/**
 * What loaders and actions receive for one request. Type-only imports: the browser bundle reaches
 * this file through the pages.
 */
import type { MessageBoard } from './messages.js';

export interface AppServices {
  readonly messages: MessageBoard;
}
