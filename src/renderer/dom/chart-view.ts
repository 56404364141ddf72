// The chart view: a chosen metric over time, one line per datasource (uPlot), in the theme's chart colours.
import uPlot from 'uplot';
import type { Table } from '../../core/table/table';
import { buildChartData, chartGroupColumn, chartMetricColumns, chartTimeColumn } from '../model/chart-series';
import type { TimeZoneMode } from '../model/format';
import { h } from './h';

const THEME_COLOURS = ['blue', 'red', 'green', 'yellow', 'orange', 'purple'];

function palette(el: HTMLElement, n: number): string[] {
  const style = getComputedStyle(el);
  const themed = THEME_COLOURS.map((c) => style.getPropertyValue(`--vscode-charts-${c}`).trim()).filter(Boolean);
  const base = themed.length ? themed : ['#3794ff', '#f14c4c', '#89d185', '#cca700', '#d18616', '#b180d7'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(i < base.length ? base[i] : `hsl(${(i * 137.5) % 360} 65% 55%)`);
  return out;
}

export class ChartView {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly note: HTMLElement;
  private readonly plotHost: HTMLElement;
  private plot?: uPlot;
  private resize?: ResizeObserver;
  private frame = 0;
  private readonly metricCols: number[];

  constructor(
    private readonly table: Table,
    private readonly rows: () => Uint32Array,
    private readonly timeZone: () => TimeZoneMode,
  ) {
    this.metricCols = chartMetricColumns(table);
    this.select = h('select', { className: 'mt-metric', attrs: { 'aria-label': 'Metric' } });
    for (const i of this.metricCols) {
      const opt = h('option', { text: table.columns[i].name });
      opt.value = String(i);
      this.select.appendChild(opt);
    }
    this.select.addEventListener('change', () => this.draw());
    this.note = h('span', { className: 'mt-status mt-chart-note' });
    this.plotHost = h('div', { className: 'mt-plot' });
    this.element = h('div', { className: 'mt-chart' }, [
      h('div', { className: 'mt-toolbar' }, [h('label', { text: 'Metric ' }), this.select, this.note]),
      this.plotHost,
    ]);
    // Redraw at the new size when the container changes (sidebar or panel resized, window resized).
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => {
        if (this.frame) return;
        this.frame = requestAnimationFrame(() => {
          this.frame = 0;
          this.fit();
        });
      });
      this.resize.observe(this.element);
    }
  }

  /** The plot's size: the container's width; in a panel (.mt-fill) also its height, else 300 px. */
  private size(): { width: number; height: number } {
    const width = Math.max(320, (this.element.clientWidth || 800) - 14);
    const fill = !!this.element.closest('.mt-fill');
    return { width, height: fill ? Math.max(160, this.plotHost.clientHeight) : 300 };
  }

  /** Fits the plot to its container; in a panel, the legend below it too (measured once uPlot has laid it out). */
  private fit(): void {
    const plot = this.plot;
    if (!plot || this.element.hidden) return;
    const size = this.size();
    plot.setSize(size);
    if (!this.element.closest('.mt-fill')) return;
    requestAnimationFrame(() => {
      const over = this.plotHost.scrollHeight - this.plotHost.clientHeight;
      if (this.plot === plot && over > 0) plot.setSize({ ...size, height: Math.max(120, size.height - over) });
    });
  }

  draw(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.plotHost.textContent = '';
    const timeCol = chartTimeColumn(this.table);
    const metricCol = Number(this.select.value);
    if (timeCol < 0 || !this.metricCols.length) {
      this.note.textContent = timeCol < 0 ? 'No time column to chart.' : 'No numeric metric column to chart.';
      return;
    }
    const data = buildChartData(this.table, this.rows(), metricCol, timeCol, chartGroupColumn(this.table));
    const omitted = data.omittedSeries ? `; ${data.omittedSeries} more datasources not drawn` : '';
    this.note.textContent = `${data.points.toLocaleString('en-US')} points, ${data.series.length} lines${omitted}`;
    const colours = palette(this.element, data.series.length);
    const utc = this.timeZone() === 'utc';
    const { width, height } = this.size();
    const axisColour =
      getComputedStyle(this.element).getPropertyValue('--vscode-descriptionForeground').trim() || '#888';
    const gridColour = 'rgba(128,128,128,0.2)';
    const axis = { stroke: axisColour, grid: { stroke: gridColour }, ticks: { stroke: gridColour } };
    this.plot = new uPlot(
      {
        width,
        height,
        tzDate: utc ? (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : (ts) => new Date(ts * 1000),
        scales: { x: { time: true } },
        axes: [axis, axis],
        series: [
          { label: utc ? 'time (UTC)' : 'time (local)' },
          ...data.series.map((s, i) => ({ label: s.label, stroke: colours[i], width: 1.5, spanGaps: false })),
        ],
      },
      [data.xs, ...data.series.map((s) => s.values)] as uPlot.AlignedData,
      this.plotHost,
    );
    this.fit();
  }

  destroy(): void {
    this.resize?.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.plot?.destroy();
  }
}
