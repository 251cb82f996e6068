import { formatDate } from '@kestrel/domain';

export interface WeekFigure {
  week_start: string;
  count: number;
}

interface Props {
  weeks: readonly WeekFigure[];
  /** What was completed, capitalised: 'Cases', 'Activities'. */
  what: string;
  testId: string;
  /** Said after the count in each bar's title (e.g. ' completed'). */
  unit?: string;
  /** Room left of the bars for the scale's numbers. */
  padLeft?: number;
}

/** A small bar chart (plain SVG) of things completed per week, oldest first. */
export function WeeklyBarChart({ weeks, what, testId, unit = '', padLeft = 28 }: Props) {
  const w = 560;
  const h = 180;
  const pad = { top: 16, bottom: 28, left: padLeft, right: 8 };
  const max = Math.max(1, ...weeks.map((x) => x.count));
  const slot = (w - pad.left - pad.right) / Math.max(1, weeks.length);
  const bar = Math.max(4, slot * 0.6);
  const y = (n: number) => pad.top + (h - pad.top - pad.bottom) * (1 - n / max);
  const total = weeks.reduce((s, x) => s + x.count, 0);
  return (
    <svg
      viewBox={`0 0 ${w} ${h}`}
      width="100%"
      role="img"
      aria-label={`${what} completed per week over the last ${weeks.length} weeks: ${total} in total`}
      data-testid={testId}
    >
      <line
        x1={pad.left}
        x2={w - pad.right}
        y1={y(0)}
        y2={y(0)}
        stroke="var(--mantine-color-default-border)"
      />
      <text x={pad.left - 6} y={y(max) + 4} textAnchor="end" fontSize="11" fill="currentColor">
        {max}
      </text>
      <text x={pad.left - 6} y={y(0) + 4} textAnchor="end" fontSize="11" fill="currentColor">
        0
      </text>
      {weeks.map((week, i) => {
        const x = pad.left + slot * i + (slot - bar) / 2;
        return (
          <g key={week.week_start}>
            <title>{`Week of ${formatDate(week.week_start)}: ${week.count}${unit}`}</title>
            <rect
              x={x}
              y={y(week.count)}
              width={bar}
              height={Math.max(0, y(0) - y(week.count))}
              rx={3}
              fill="var(--mantine-primary-color-filled)"
            />
            {i % 2 === weeks.length % 2 ? null : (
              <text x={x + bar / 2} y={h - 8} textAnchor="middle" fontSize="10" fill="currentColor">
                {formatDate(week.week_start).replace(/ \d{4}$/, '')}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
