/**
 * The service images refuse the committed development secrets in production mode: each one-off
 * container gets exactly what docker-compose.yml gives it from the committed .env, minus the
 * opt-out, and must exit with code 78 naming the variables.
 */
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { composeCommand, ROOT } from './compose-stack.js';

const project = `strata-guard-${process.pid}`;

/** Runs the compose CLI on this project; resolves with its exit code and everything it printed. */
function compose(...args: string[]): Promise<{ code: number; output: string }> {
  const [file = '', ...rest] = [...composeCommand(), '-p', project, '-f', 'docker-compose.yml'];
  return new Promise((resolve) => {
    execFile(
      file,
      [...rest, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, STRATA_ALLOW_DEVELOPMENT_SECRETS: 'false' },
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: Number(error?.code ?? 0), output: `${stdout}${stderr}` }),
    );
  });
}

afterAll(async () => {
  await compose('down', '-v', '--remove-orphans', '--timeout', '1');
}, 120_000);

/** Runs a service's container on its own; it must exit with EX_CONFIG (78). */
async function refusal(service: string, ...env: string[]): Promise<string> {
  const { code, output } = await compose('run', '--rm', '--no-deps', ...env, service);
  expect(code).toBe(78);
  return output;
}

describe('production mode on the committed .env without the opt-out', () => {
  it('render refuses to start, naming ACTION_SALT and REDIS_URL', async () => {
    const output = await refusal('render');
    expect(output).toContain('ACTION_SALT: is a committed development value');
    expect(output).toContain('REDIS_URL: carries the committed development password');
    expect(output).toContain('STRATA_ALLOW_DEVELOPMENT_SECRETS=true');
  });

  it('data refuses to start, naming PAGE_TOKEN_SECRET and DATABASE_URL', async () => {
    const output = await refusal('data');
    expect(output).toContain('PAGE_TOKEN_SECRET: is a committed development value');
    expect(output).toContain('DATABASE_URL: carries the committed development password');
  });

  it('the relay refuses to start, naming RELAY_DSNS', async () => {
    expect(await refusal('relay')).toContain('RELAY_DSNS: lists a committed development DSN');
  });

  it('Redis refuses to start without a password', async () => {
    const output = await refusal('redis', '-e', 'REDIS_PASSWORD=');
    expect(output).toContain('set REDIS_PASSWORD or REDIS_PASSWORD_FILE');
  });
});
