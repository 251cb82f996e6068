import { formatDate } from '@kestrel/domain';
import { Alert } from '@mantine/core';
import type { MaintenanceWindow } from '../lib/session/types';

// Loaded only while a window is announced: the date formatting (date-fns) stays out of every
// first visit's JavaScript (the 150 KB budget of the sign-in page and deep links).

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

export function maintenanceWarningText(window: MaintenanceWindow): string {
  return `Planned maintenance: the site will be unavailable from ${when(window.start)} until ${when(window.end)}.`;
}

/** The warning itself (see MaintenanceBanner, which decides when it shows). */
export default function MaintenanceWarning({ window }: { window: MaintenanceWindow }) {
  return (
    <Alert color="yellow" variant="light" role="status" data-testid="maintenance-warning" mb="md">
      {maintenanceWarningText(window)}
    </Alert>
  );
}
