import { formatDate, maintenanceStatus } from '@kestrel/domain';
import { Alert } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSession } from '../lib/session/session-store';
import type { MaintenanceWindow } from '../lib/session/types';

const clock = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** A moment as the date ('do MMM y', spec point 9) and the clock time: '24th Nov 2026, 03:43 UTC'. */
const when = (iso: string) => {
  const d = new Date(iso);
  return `${formatDate(d)}, ${clock.format(d)}`;
};

/** True from warning_start until start (spec point 4). */
export function isWarningTime(window: MaintenanceWindow | null, now: Date): boolean {
  return maintenanceStatus(window, now) === 'warning';
}

export function maintenanceWarningText(window: MaintenanceWindow): string {
  return `Planned maintenance: the site will be unavailable from ${when(window.start)} until ${when(window.end)}.`;
}

/** The warning shown before a maintenance window; layouts place it above their content. */
export function MaintenanceBanner() {
  const { maintenanceWindow } = useSession();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!maintenanceWindow || !isWarningTime(maintenanceWindow, now)) return null;
  return (
    <Alert color="yellow" variant="light" role="status" data-testid="maintenance-warning" mb="md">
      {maintenanceWarningText(maintenanceWindow)}
    </Alert>
  );
}
