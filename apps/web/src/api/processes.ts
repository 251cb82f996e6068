import type { ProcessOut, RequirementInput, RequirementOut } from '@kestrel/domain';
import { defineResource } from './resource';

/**
 * One kind of check a process's cases run, with its activity configuration: what the editor
 * sends (contract: requirementInput), with the server's fields once saved (requirementOut).
 */
export type Requirement = RequirementInput &
  Partial<Pick<RequirementOut, 'id' | 'activity_type_name' | 'key' | 'position'>>;

/** A process as the API returns it (contract: processOut). */
export type Process = ProcessOut;

export const processes = defineResource<Process>('/api/processes/', {
  item: 'process',
  plural: 'processes',
});
