// The Chart view: a metric over time, one line per datasource (dom/chart-view.ts draws it). Its image is the
// chart the notebook's exports draw (core/notebook/export/svg-chart), of the rows shown and the chart's choice.
import { svgChart } from '../../core/notebook/export/svg-chart';
import { takeRows } from '../../core/table/table-rows';
import { ChartView } from '../dom/chart-view';
import { isTimeSeries } from '../model/table-shape';
import type { PanelContext, ViewDefinition, ViewImage } from './view';

function chartImage(ctx: PanelContext, view: ChartView): ViewImage | undefined {
  const by = Number(view.linesBy.value);
  const metric = ctx.table.columns[view.metricColumn]?.name;
  const linesBy = by >= 0 ? ctx.table.columns[by]?.name : '';
  const chart = svgChart(takeRows(ctx.table, ctx.rows()), { metric, linesBy }, true, ctx.styleSlots);
  return chart && { svg: chart.svg, name: `chart ${metric ?? ''}` };
}

export const chartView: ViewDefinition = {
  name: 'chart',
  title: 'Chart',
  tooltip: 'A metric over time, one line per datasource',
  applies: isTimeSeries,
  create: (ctx) => {
    const view = new ChartView(ctx.table, ctx.rows, ctx.timeZone, { styleSlots: ctx.styleSlots });
    return Object.assign(view, { image: () => chartImage(ctx, view) });
  },
};
