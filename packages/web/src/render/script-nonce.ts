/**
 * The Content-Security-Policy nonce of the document being rendered. Every inline script the
 * runtime writes (hydration data, deferred values) carries it; the browser provides the same
 * value while hydrating, so the markup matches. Absent: no policy, no nonce attribute.
 */
import { createContext } from 'react';

/** The current document's script nonce, or undefined. */
export const ScriptNonceContext = createContext<string | undefined>(undefined);
