/**
 * What the tests ask a served scaffolded app: the streamed page as it arrives, and the
 * postMessage action posted as a form without JavaScript would.
 */

/** The streamed page's body, with the time each chunk arrived (ms after the request). */
export async function readStreamed(
  url: string,
): Promise<{ chunks: { at: number; text: string }[] }> {
  const started = Date.now();
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const decoder = new TextDecoder();
  const chunks: { at: number; text: string }[] = [];
  for await (const chunk of response.body!)
    chunks.push({ at: Date.now() - started, text: decoder.decode(chunk, { stream: true }) });
  return { chunks };
}

/** The action id the home page's form posts. */
export function actionIdIn(html: string): string {
  const id = /name="\$action" value="([0-9a-f]{32})"/.exec(html)?.[1];
  if (!id) throw new Error('the page has no action form');
  return id;
}

/** Posts the home page's form with `text`, from the app's own origin. */
export async function postMessage(origin: string, text: string): Promise<Response> {
  const id = actionIdIn(await (await fetch(`${origin}/`)).text());
  return fetch(`${origin}/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ $action: id, text }).toString(),
  });
}
