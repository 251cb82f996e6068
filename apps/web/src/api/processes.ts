import type { ActivityConfig, ProcessOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** One kind of check a process's cases run, with its activity configuration. */
export interface Requirement {
  id?: number;
  activity_type: string;
  activity_type_name?: string;
  key?: string;
  position?: number;
  config: ActivityConfig;
}

/** A process as the API returns it (contract: processOut). */
export type Process = ProcessOut;

export const processes = defineResource<Process>('/api/processes/', {
  item: 'process',
  plural: 'processes',
});
