import { maintenanceStatus } from '@kestrel/domain';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSession } from '../lib/session/session-store';
import type { MaintenanceWindow } from '../lib/session/types';

const MaintenanceWarning = lazy(() => import('./maintenance-warning'));

/** True from warning_start until start (spec point 4). */
export function isWarningTime(window: MaintenanceWindow | null, now: Date): boolean {
  return maintenanceStatus(window, now) === 'warning';
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
    <Suspense fallback={null}>
      <MaintenanceWarning window={maintenanceWindow} />
    </Suspense>
  );
}
