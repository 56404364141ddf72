// The Chart view: a metric over time, one line per datasource (dom/chart-view.ts draws it).
import { ChartView } from '../dom/chart-view';
import { isTimeSeries } from '../model/table-shape';
import type { ViewDefinition } from './view';

export const chartView: ViewDefinition = {
  name: 'chart',
  title: 'Chart',
  tooltip: 'A metric over time, one line per datasource',
  applies: isTimeSeries,
  create: (ctx) => new ChartView(ctx.table, ctx.rows, ctx.timeZone),
};
