import { describe, expect, it } from 'vitest';
import { readLogLine } from './log-lines.js';

describe('readLogLine', () => {
  it('prints pino lines as level and message, with the error’s stack', () => {
    expect(readLogLine('{"level":40,"msg":"ACTION_SALT is unset"}')).toEqual({
      text: '[warn] ACTION_SALT is unset',
    });
    const read = readLogLine(
      JSON.stringify({
        level: 50,
        msg: 'loader failed',
        url: '/slow',
        reqId: 'r1',
        err: { message: 'broke', stack: 'Error: broke\n    at loader' },
      }),
    );
    expect(read.text).toBe('[error] loader failed (/slow)\nError: broke\n    at loader');
    expect(read.problem).toEqual({
      requestId: 'r1',
      problem: { title: 'loader failed (/slow): broke', detail: 'Error: broke\n    at loader' },
    });
  });

  it('keeps other lines as they are, with no problem', () => {
    expect(readLogLine('plain text')).toEqual({ text: 'plain text' });
    expect(readLogLine('{"not":"pino"}')).toEqual({ text: '{"not":"pino"}' });
    expect(readLogLine('{"level":50,"msg":"no error object"}').problem).toBeUndefined();
  });
});
