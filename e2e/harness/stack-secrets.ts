/**
 * Fresh values for the stack's six secrets, as an operator would create them (none is a
 * committed development value): the compose hardening test writes them to files, the Swarm test
 * creates Swarm secrets from them. Keys are the secret names docs/operations.md and
 * docs/swarm.md use.
 */
import { randomBytes } from 'node:crypto';

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
