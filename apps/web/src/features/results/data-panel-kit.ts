import type { Audience } from './panel-kit';
import type { ApiFamily } from './results-api';

export type { ApiFamily };

/**
 * Which API family a data panel reads the case through: the audience's own (operations read
 * /api/ops/, which reaches every customer's case, in an ops session or not).
 */
export function familyOf(audience: Audience): ApiFamily {
  return audience;
}
