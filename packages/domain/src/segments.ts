import type { ActivityConfig } from './activity-config.js';

/**
 * The employer name an activity's application carries (the certificate's employer): the one
 * typed into the configuration (source 'custom'), or the employer name of the segment the
 * case's process belongs to (source 'segment'; none when the process has no segment or the
 * segment has no employer name). Null when the configuration names no source.
 */
export function employerNameOf(
  config: Pick<ActivityConfig, 'employer_name_source' | 'employer_name'>,
  segmentEmployerName: string | null,
): string | null {
  if (config.employer_name_source === 'custom') return config.employer_name?.trim() || null;
  if (config.employer_name_source === 'segment') return segmentEmployerName?.trim() || null;
  return null;
}
