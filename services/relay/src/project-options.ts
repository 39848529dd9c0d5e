/**
 * Per-project processing options: the relay-wide defaults from the environment, overridden per
 * project id by `RELAY_PROJECT_OPTIONS` (a JSON object, like the project files of Relay's static
 * mode). Pure; the schema is also used by config.ts to validate the variable at start.
 */
import { z } from 'zod';
import type { RelayConfig } from './config.js';
import { FILTER_IDS } from './filters/filter.js';
import { FILTERS } from './filters/registry.js';
import { SPEC_EVENT_LIMITS } from './limits/event-limits.js';
import type { ProcessOptions } from './pipeline/process-envelope.js';

/** Overrides for one project; any field left out keeps the relay-wide value. */
export const ProjectOptionsSchema = z
  .object({
    filters: z.array(z.enum(FILTER_IDS)).optional(),
    redirectMarkers: z.array(z.string()).optional(),
    errorMessages: z.array(z.string()).optional(),
    transactionNames: z.array(z.string()).optional(),
    releases: z.array(z.string()).optional(),
    clientIps: z.array(z.string()).optional(),
    legacyBrowsers: z.array(z.string()).optional(),
    scrubPii: z.boolean().optional(),
  })
  .strict();

/** `RELAY_PROJECT_OPTIONS`: project id → overrides. */
export const ProjectOptionsMapSchema = z.record(z.string().regex(/^\d+$/), ProjectOptionsSchema);

/** The `RELAY_PROJECT_OPTIONS` variable: JSON text, read into the overrides or refused. */
export function projectOptionsVariable() {
  return z
    .string()
    .default('{}')
    .transform((raw, ctx) => {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
        return z.NEVER;
      }
      const parsed = ProjectOptionsMapSchema.safeParse(json);
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        return z.NEVER;
      }
      return parsed.data;
    });
}

/** Parsed overrides. */
export type ProjectOptionsMap = z.output<typeof ProjectOptionsMapSchema>;

/** Builds the processing options of every project, falling back to the relay-wide ones. */
export function createProcessOptions(config: RelayConfig): (projectId: string) => ProcessOptions {
  const base: ProcessOptions = {
    filters: FILTERS,
    filterConfig: {
      enabled: new Set(config.RELAY_FILTERS),
      redirectMarkers: config.RELAY_FILTER_REDIRECT_MARKERS,
      errorMessages: config.RELAY_FILTER_ERROR_MESSAGES,
      transactionNames: config.RELAY_FILTER_TRANSACTIONS,
      releases: config.RELAY_FILTER_RELEASES,
      clientIps: config.RELAY_FILTER_CLIENT_IPS,
      legacyBrowsers: config.RELAY_FILTER_LEGACY_BROWSERS,
    },
    eventLimits: {
      maxValueLength: config.RELAY_MAX_VALUE_LENGTH,
      maxBreadcrumbs: config.RELAY_MAX_BREADCRUMBS,
      maxFrames: config.RELAY_MAX_FRAMES,
      maxBaggageLength: SPEC_EVENT_LIMITS.maxBaggageLength,
    },
    scrubPii: config.RELAY_SCRUB_PII,
    maxJsonDepth: config.RELAY_MAX_JSON_DEPTH,
  };
  const perProject = new Map<string, ProcessOptions>();
  for (const [projectId, overrides] of Object.entries(config.RELAY_PROJECT_OPTIONS)) {
    const filterConfig = base.filterConfig;
    perProject.set(projectId, {
      ...base,
      filterConfig: {
        enabled: overrides.filters ? new Set(overrides.filters) : filterConfig.enabled,
        redirectMarkers: overrides.redirectMarkers ?? filterConfig.redirectMarkers,
        errorMessages: overrides.errorMessages ?? filterConfig.errorMessages,
        transactionNames: overrides.transactionNames ?? filterConfig.transactionNames,
        releases: overrides.releases ?? filterConfig.releases,
        clientIps: overrides.clientIps ?? filterConfig.clientIps,
        legacyBrowsers: overrides.legacyBrowsers ?? filterConfig.legacyBrowsers,
      },
      scrubPii: overrides.scrubPii ?? base.scrubPii,
    });
  }
  return (projectId) => perProject.get(projectId) ?? base;
}
