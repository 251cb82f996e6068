import type { AuditActionOut, SecurityRefusalOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** An audit row (contract: auditActionOut). */
export type AuditAction = AuditActionOut;

export const auditActions = defineResource<AuditAction>('/api/audit-actions/', {
  item: 'audit action',
  plural: 'audit actions',
});

/** Refused requests, counted per person, route and hour (contract: securityRefusalOut). */
export type SecurityRefusal = SecurityRefusalOut;

export const securityRefusals = defineResource<SecurityRefusal>('/api/security-refusals/', {
  item: 'refused request',
  plural: 'refused requests',
});
