/**
 * Fresh values for the stack's six secrets, as an operator would create them (none is a
 * committed development value): the compose hardening test writes them to files, the Swarm test
 * creates Swarm secrets from them. Keys are the secret names docs/operations.md and
 * docs/swarm.md use.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freshStackSecrets(): Record<string, string> {
  const secret = () => randomBytes(24).toString('hex');
  const postgres = secret();
  const redis = secret();
  return {
    action_salt: secret(),
    page_token_secret: secret(),
    postgres_password: postgres,
    redis_password: redis,
    database_url: `postgres://strata:${postgres}@postgres:5432/strata`,
    redis_url: `redis://:${redis}@redis:6379`,
  };
}

/**
 * Fresh secrets in files of a new folder, one per secret, as an operator would keep them for
 * docker-compose.secrets.yml (STRATA_SECRETS_DIR); readable by the containers' own users. The
 * caller removes the folder.
 */
export function writeFreshSecretFiles(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-secrets-'));
  chmodSync(dir, 0o755);
  for (const [name, value] of Object.entries(freshStackSecrets()))
    writeFileSync(join(dir, name), `${value}\n`, { mode: 0o644 });
  return dir;
}
