import type { CallProgress } from '@merit/contract';
import { formatDateTime } from '@merit/domain';
import { Box, useTheme } from '@mui/material';
import { useId } from 'react';

const DAY_MS = 24 * 60 * 60 * 1000;
const WIDTH = 480;
const HEIGHT = 120;
/** Room under the bars for the first and last day, and above them for the deadline's label. */
const BOTTOM = 18;
const TOP = 16;

/** A UTC day as the axis writes it: "2 Apr". */
const dayLabel = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

const dayStart = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00.000Z`);

interface ChartDay {
  at: number;
  saves: number;
}

/**
 * Every UTC day from the start of review (or the first save, if earlier) to just past its
 * close (or the last save, if later), with the saves of each: the server lists only days
 * with some.
 */
export function chartDays(
  progress: Pick<CallProgress, 'savesPerDay' | 'reviewCommencement' | 'reviewTermination'>,
): ChartDay[] {
  const saves = new Map(progress.savesPerDay.map((d) => [dayStart(d.day), d.saves]));
  const known = [...saves.keys()];
  const first = Math.min(dayStart(progress.reviewCommencement), ...known);
  // Two days past the close, so its line stands inside the chart rather than on its edge.
  const last = Math.max(dayStart(progress.reviewTermination) + 2 * DAY_MS, first, ...known);
  const days: ChartDay[] = [];
  for (let at = first; at <= last; at += DAY_MS) days.push({ at, saves: saves.get(at) ?? 0 });
  return days;
}

/** What the chart shows, in words, for those who do not see it. */
export function chartSummary(days: readonly ChartDay[], reviewTermination: string): string {
  const close = `Review closes on ${formatDateTime(new Date(reviewTermination))}.`;
  const total = days.reduce((sum, day) => sum + day.saves, 0);
  if (total === 0) return `No review has been saved yet. ${close}`;
  const busiest = days.reduce((best, day) => (day.saves > best.saves ? day : best));
  const saved = days.filter((day) => day.saves > 0);
  return [
    `${total} ${total === 1 ? 'review' : 'reviews'} saved`,
    `between ${dayLabel.format(saved[0]!.at)} and ${dayLabel.format(saved.at(-1)!.at)};`,
    `the most in one day: ${busiest.saves} on ${dayLabel.format(busiest.at)}.`,
    close,
  ].join(' ');
}

/**
 * Reviews saved per day against the deadline: one bar a day, the close of review a
 * dashed line. Small on purpose: the shape (a rush at the end, a quiet week) is what a
 * chair reads from it; the numbers are in the tables below and in the chart's description.
 */
export function SavesChart({
  progress,
}: {
  progress: Pick<CallProgress, 'savesPerDay' | 'reviewCommencement' | 'reviewTermination'>;
}) {
  const theme = useTheme();
  const id = useId();
  const days = chartDays(progress);
  const first = days[0]!.at;
  const span = days.length * DAY_MS;
  const x = (at: number) => ((at - first) / span) * WIDTH;
  const barWidth = WIDTH / days.length;
  const top = Math.max(1, ...days.map((day) => day.saves));
  const plot = HEIGHT - BOTTOM - TOP;
  const closeX = Math.min(WIDTH - 1, Math.max(1, x(Date.parse(progress.reviewTermination))));
  const axis = theme.palette.text.secondary;
  const text = { fontSize: 11, fill: axis, fontFamily: theme.typography.fontFamily };

  return (
    <Box sx={{ maxWidth: WIDTH, width: '100%' }}>
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ display: 'block', overflow: 'visible' }}
      >
        <title id={`${id}-title`}>Reviews saved per day</title>
        <desc id={`${id}-desc`}>{chartSummary(days, progress.reviewTermination)}</desc>
        {/* The height of the tallest bar: the scale, without an axis to read. */}
        <text x={0} y={10} {...text}>
          {`${top} ${top === 1 ? 'save' : 'saves'}`}
        </text>
        {days.map((day) =>
          day.saves > 0 ? (
            <rect
              key={day.at}
              x={x(day.at) + barWidth * 0.1}
              width={Math.max(1, barWidth * 0.8)}
              y={TOP + plot - (day.saves / top) * plot}
              height={(day.saves / top) * plot}
              fill={theme.palette.primary.main}
            />
          ) : null,
        )}
        <line x1={0} x2={WIDTH} y1={TOP + plot} y2={TOP + plot} stroke={theme.palette.divider} />
        <line
          x1={closeX}
          x2={closeX}
          y1={TOP - 4}
          y2={TOP + plot}
          stroke={theme.palette.error.main}
          strokeWidth={2}
          strokeDasharray="4 3"
        />
        <text
          x={closeX}
          y={TOP - 6}
          textAnchor={closeX > WIDTH / 2 ? 'end' : 'start'}
          {...text}
          fill={theme.palette.error.main}
        >
          Review closes
        </text>
        <text x={0} y={HEIGHT - 4} {...text}>
          {dayLabel.format(first)}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" {...text}>
          {dayLabel.format(days.at(-1)!.at)}
        </text>
      </svg>
    </Box>
  );
}
