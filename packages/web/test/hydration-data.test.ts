/**
 * The hydration data inlined in documents: lists of like records are written with their keys
 * once, stay safe inside <script>, and the browser's reader gets the loader's values back.
 */
import { describe, expect, it } from 'vitest';
import { createInlineSource } from '../src/client/inline-source.js';
import { RECORDS } from './fixtures/test-app.js';
import { buildTestServer } from './harness/build-test-server.js';

describe('hydration data', () => {
  it('writes a list’s keys once and reads back exactly what the loader returned', async () => {
    const server = await buildTestServer();
    const { body } = await server.app.inject({ url: '/records' });
    const scripts = [...body.matchAll(/<script>(\(self\.__strata[\s\S]*?)<\/script>/g)].map(
      (match) => match[1] ?? '',
    );
    const records = scripts.find((text) => text.includes('"records"')) ?? '';
    // Keys once, not once per row; nothing that could end the script.
    expect(records.match(/"name"/g)).toHaveLength(1);
    expect(records).not.toMatch(/<\/script|[\u2028\u2029]/i);

    const queue: never[] = [];
    for (const script of scripts) new Function('self', script)({ __strata: queue });
    const source = createInlineSource(queue);
    expect(source.states().get('records')?.outcome).toEqual({
      status: 'ok',
      data: { rows: RECORDS },
      deferred: [],
    });
    // Entries pushed after the reader started are unpacked too.
    const late: never[] = [];
    const lateSource = createInlineSource(late);
    new Function('self', records)({ __strata: late });
    expect((await lateSource.segment('records')).outcome).toMatchObject({
      data: { rows: RECORDS },
    });
  });
});
