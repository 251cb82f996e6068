import type { MaintenanceWindowRecordOut } from '@kestrel/domain';
import { defineResource } from '../../api/resource';

/** /api/ops/maintenance-windows/ (contract: maintenanceWindowRecordOut). */
export const maintenanceWindows = defineResource<MaintenanceWindowRecordOut>(
  '/api/ops/maintenance-windows/',
  { item: 'maintenance window', plural: 'maintenance windows' },
);

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a datetime-local input's value (the browser's time zone). */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value as an ISO instant ('' when blank or not a date). */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** An instant as the screen shows it: 28 Nov 2026, 09:30 (the browser's time zone). */
export function showInstant(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
