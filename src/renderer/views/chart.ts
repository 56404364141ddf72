// The Chart view: a metric over time, one line per datasource (dom/chart-view.ts draws it). Its image is the
// chart the notebook's exports draw (core/notebook/export/svg-chart), of the rows shown and the chart's choice
// (metrics, panels or left/right axes, resampling), in the view's zone and line styles.
import { svgChart } from '../../core/notebook/export/svg-chart';
import { takeRows } from '../../core/table/table-rows';
import { ChartView } from '../dom/chart-view';
import { tableLineStyles } from '../model/colour';
import { isTimeSeries } from '../model/table-shape';
import type { PanelContext, ViewDefinition, ViewImage } from './view';

function chartImage(ctx: PanelContext, view: ChartView): ViewImage | undefined {
  const choice = view.choice();
  const styles = tableLineStyles(ctx.table, Number(view.linesBy.value), ctx.styleSlots);
  const chart = svgChart(takeRows(ctx.table, ctx.rows()), choice, { zone: ctx.timeZone(), styles, notesInside: true });
  return chart && { svg: chart.svg, name: `chart ${[choice.metric, ...(choice.also ?? [])].join(' ')}` };
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
