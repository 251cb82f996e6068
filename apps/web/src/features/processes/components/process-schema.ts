import { type ProcessDetails, processDetails } from '@kestrel/domain';

/** The process fields a customer edits (details): the server's own rules (contract: processDetails). */
export const processDetailsSchema = processDetails;
export type { ProcessDetails };
