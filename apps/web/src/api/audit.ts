import type { AuditActionOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** An audit row (contract: auditActionOut). */
export type AuditAction = AuditActionOut;

export const auditActions = defineResource<AuditAction>('/api/audit-actions/', {
  item: 'audit action',
  plural: 'audit actions',
});

/** Refused requests, counted per person, route and hour (apart from the audit log). */
export interface SecurityRefusal {
  id: number;
  customer: number | null;
  actor_type: string | null;
  actor: number | null;
  actor_name: string;
  route: string;
  path: string;
  reason: string;
  count: number;
  first_seen_at: string;
  last_seen_at: string;
}

export const securityRefusals = defineResource<SecurityRefusal>('/api/security-refusals/', {
  item: 'refused request',
  plural: 'refused requests',
});
