import { describe, expect, it } from 'vitest';
import { parseCli, parsePort, UsageError } from './cli-args.js';

describe('parseCli', () => {
  it('reads each command and its port', () => {
    expect(parseCli(['build'])).toEqual({ command: 'build' });
    expect(parseCli(['start'])).toEqual({ command: 'start', port: undefined });
    expect(parseCli(['dev', '--port', '4100'])).toEqual({ command: 'dev', port: 4100 });
    expect(parseCli(['start', '--port=8080'])).toEqual({ command: 'start', port: 8080 });
    expect(parseCli(['--help'])).toEqual({ command: 'help' });
    expect(parseCli(['dev', '-h'])).toEqual({ command: 'help' });
  });

  it.each([
    [[], 'No command given.'],
    [['serve'], 'Unknown command "serve" (expected dev, build, start).'],
    [['dev', '--prot', '1'], "Unknown option '--prot'"],
    [['start', 'extra'], 'Unexpected argument "extra".'],
    [['build', '--port', '3000'], '`strata build` takes no --port.'],
    [['start', '--port', 'http'], '--port must be a number from 1 to 65535, not "http".'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseCli(argv)).toThrow(UsageError);
    expect(() => parseCli(argv)).toThrow(message);
  });
});

describe('parsePort', () => {
  it('takes 1 to 65535 only', () => {
    expect(parsePort('1')).toBe(1);
    expect(parsePort('65535')).toBe(65_535);
    for (const bad of ['0', '65536', '-1', '3.5', ''])
      expect(() => parsePort(bad)).toThrow(UsageError);
  });
});
