import { z } from 'zod';

/** A country map entry (spec point 3). */
export const countryEntryOut = z.strictObject({
  name: z.string(),
  nationality: z.string(),
  deprecated: z.boolean(),
  ebulk_missing: z.boolean(),
});

/**
 * GET /api/countries/ and GET /api/s/cases/country-map/: every country keyed by ISO alpha-3,
 * GBR first, deprecated codes included and flagged (pickers hide them: `sortedCountries`).
 */
export const countryMapOut = z.record(z.string(), countryEntryOut);
export type CountryMapOut = z.infer<typeof countryMapOut>;
