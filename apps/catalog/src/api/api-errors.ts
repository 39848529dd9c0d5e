/**
 * The JSON API's answers: `{ "error": { "code", "message", "fields"? } }` for errors, and the
 * JSON body of a request, refused with 415 or 400 when it is not JSON.
 */
import type { z } from 'zod';

/** An API error answer. */
export function apiError(
  status: number,
  code: string,
  message: string,
  fields?: Record<string, readonly string[]>,
): Response {
  return Response.json({ error: { code, message, ...(fields && { fields }) } }, { status });
}

/** The request's JSON body, or the answer refusing it. */
export async function jsonBody(
  request: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; refusal: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return {
      ok: false,
      refusal: apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json.'),
    };
  try {
    return { ok: true, value: JSON.parse(await request.text()) };
  } catch {
    return { ok: false, refusal: apiError(400, 'BAD_BODY', 'The body is not valid JSON.') };
  }
}

/** Field messages of a failed schema parse. */
export function zodFields(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues)
    (fields[issue.path.map(String).join('.') || '_body'] ??= []).push(issue.message);
  return fields;
}
