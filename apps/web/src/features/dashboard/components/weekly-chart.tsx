import type { WeekCount } from '../../../api/dashboard';
import { WeeklyBarChart } from '../../../components/weekly-bar-chart';

/** Cases completed per week, oldest first. */
export function WeeklyChart({ weeks }: { weeks: WeekCount[] }) {
  return <WeeklyBarChart weeks={weeks} what="Cases" testId="weekly-chart" />;
}
