/**
 * The JSON API's error bodies: `{ "error": { "code", "message", "fields"? } }`.
 */
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

/** Sends an API error. */
export function apiError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  fields?: Record<string, readonly string[]>,
) {
  return reply.code(status).send({ error: { code, message, ...(fields && { fields }) } });
}

/** Field messages of a failed schema parse. */
export function zodFields(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues)
    (fields[issue.path.map(String).join('.') || '_body'] ??= []).push(issue.message);
  return fields;
}
