import { type WeekFigure, WeeklyBarChart } from '../../../components/weekly-bar-chart';

/** Activities completed per week, oldest first. */
export function ThroughputChart({ weeks }: { weeks: readonly WeekFigure[] }) {
  return (
    <WeeklyBarChart
      weeks={weeks}
      what="Activities"
      testId="throughput-chart"
      unit=" completed"
      padLeft={32}
    />
  );
}
