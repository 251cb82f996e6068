import type { ActivityConfig } from '@kestrel/domain';
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

export interface Process {
  id: number;
  name: string;
  description: string;
  is_active: boolean;
  created_at: string;
  send_invitation: boolean;
  reminder_days: number;
  invitation_message: string;
  requirements: Requirement[];
  can_edit_requirements: boolean;
  case_count: number;
}

export const processes = defineResource<Process>('/api/processes/', {
  item: 'process',
  plural: 'processes',
});
