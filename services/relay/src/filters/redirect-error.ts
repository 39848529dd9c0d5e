/**
 * Redirect control flow thrown as errors (Strata's redirect marker, Next.js `NEXT_REDIRECT`):
 * the first exception's value or type equals a marker or starts with `<marker>;` (digest form).
 */
import { enabledById, type Filter } from './filter.js';

/** Drops redirect control-flow errors. */
export const redirectErrorFilter: Filter = {
  id: 'redirect-error',
  appliesTo: 'error',
  isEnabled: enabledById('redirect-error'),
  matches: (item, config) =>
    item.exceptions.some((exception) =>
      config.redirectMarkers.some(
        (marker) =>
          exception.type === marker ||
          exception.value === marker ||
          (exception.value?.startsWith(`${marker};`) ?? false),
      ),
    ),
};
