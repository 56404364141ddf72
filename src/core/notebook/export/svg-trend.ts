// The Trend view's image (openair's TheilSen plot): a datasource's monthly means over time and the Theil–Sen line
// over them, the unit on the axis, a legend, the months' time range, and the statistics the view shows as notes.
import { LINE_COLOURS } from '../../aq/line-styles';
import type { MonthMean, TrendResult } from '../../aq/trend';
import { DAY_MS } from '../../time/duration';
import { daysFromCivil } from '../../time/iso';
import { type PlotSeries, svgTimeChart } from './svg-plot';

/** A month index (months since 1970-01) as the instant (ms) of its 1st at 00:00 UTC. */
export function monthStartMs(month: number): number {
  return daysFromCivil(1970 + Math.floor(month / 12), (((month % 12) + 12) % 12) + 1, 1) * DAY_MS;
}

interface TrendImage {
  title: string;
  unit: string;
  /** The statistics as the view says them, one line each. */
  notes: string[];
}

/** The monthly means (deseasonalised when the trend was) and, when there is a trend, its line first to last month. */
export function svgTrend(months: readonly MonthMean[], result: TrendResult, o: TrendImage): string {
  const y = result.ok ? result.y : months.map((m) => m.mean);
  const times = months.map((m) => monthStartMs(m.month));
  const series: PlotSeries[] = [
    {
      label: result.ok && result.deseasonalised ? 'monthly mean, deseasonalised' : 'monthly mean',
      points: times.map((t, i): [number, number] => [t, y[i]]),
      style: { colour: LINE_COLOURS[0], dash: [] },
      markers: true,
    },
  ];
  if (result.ok) {
    const { slope, intercept } = result.fit;
    const ends = [0, months.length - 1];
    series.push({
      label: 'Theil–Sen line',
      points: ends.map((i): [number, number] => [times[i], intercept + slope * result.x[i]]),
      style: { colour: LINE_COLOURS[2], dash: [6, 3] },
    });
  }
  return svgTimeChart({ title: o.title, yLabel: o.unit || 'value', series, notes: o.notes });
}
