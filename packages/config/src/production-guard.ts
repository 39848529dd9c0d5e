/**
 * The production guard: with NODE_ENV=production (as every service image sets) a service refuses
 * to start on a development secret or a missing production setting, naming each variable, so a
 * deployment cannot run on the values committed for laptops and CI. Local compose runs opt out
 * explicitly with STRATA_ALLOW_DEVELOPMENT_SECRETS=true (the committed .env sets it). Pure.
 */
import { ConfigError } from './load-config.js';

/** The explicit opt-out for local runs of the production images. */
export const DEVELOPMENT_OPT_OUT = 'STRATA_ALLOW_DEVELOPMENT_SECRETS';

/** One setting the guard checks on the parsed configuration. */
export interface ProductionRule<C> {
  readonly variable: string;
  /** Why the configured value must not run in production; undefined when it may. */
  readonly refuse: (config: C) => string | undefined;
}

/** A secret that is unset (the service falls back to its own development value) or committed. */
export function notDevelopmentSecret<C>(
  variable: string,
  valueOf: (config: C) => string | undefined,
  developmentValues: readonly string[],
): ProductionRule<C> {
  return {
    variable,
    refuse(config) {
      const value = valueOf(config);
      if (value === undefined || value === '') return 'is unset, so a development value is used';
      if (developmentValues.includes(value)) return 'is a committed development value';
      return undefined;
    },
  };
}

/** A setting production needs (an empty list counts as unset). */
export function requiredInProduction<C>(
  variable: string,
  valueOf: (config: C) => string | readonly string[] | undefined,
): ProductionRule<C> {
  return {
    variable,
    refuse: (config) => (valueOf(config)?.length ? undefined : 'must be set in production'),
  };
}

function optedOut(env: Readonly<Record<string, string | undefined>>): boolean {
  return ['1', 'true', 'yes', 'on'].includes((env[DEVELOPMENT_OPT_OUT] ?? '').trim().toLowerCase());
}

/**
 * Returns `config` when it may run; throws a ConfigError naming every refused variable when
 * NODE_ENV=production and the opt-out is not set.
 */
export function guardProduction<C>(
  service: string,
  config: C,
  env: Readonly<Record<string, string | undefined>>,
  rules: readonly ProductionRule<C>[],
): C {
  if (env['NODE_ENV'] !== 'production' || optedOut(env)) return config;
  const problems = rules.flatMap((rule) => {
    const reason = rule.refuse(config);
    return reason === undefined
      ? []
      : [
          `${rule.variable}: ${reason}; NODE_ENV=production refuses it (set your own, or ${DEVELOPMENT_OPT_OUT}=true for a local run)`,
        ];
  });
  if (problems.length > 0) throw new ConfigError(service, problems);
  return config;
}
