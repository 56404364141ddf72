// The insights strip under the headers (toolbar's Insights): per column a histogram (numbers: the bins between
// the 1st and 99th percentile, the values outside in an under/overflow bin drawn apart), the top values
// (text, status, QC), the range of times, and the missing share and distinct count. A bin, a value or the
// missing share is a button: it sets that column's filter (model/insights gives each its filter text).
import type { Table } from '../../core/table/table';
import { h } from '../dom/h';
import { formatTime, type TimeZoneMode } from '../model/format';
import { type ColumnInsight, type InsightBin, missingPercent, type ValuesInsight } from '../model/insights';
import { type GridColumns, GUTTER } from './columns';

// One formatter for every number of the strip: chromium's toLocaleString makes one per call (its profile:
// ~3 % of the strip's time), the text is the same (ECMA-402: toLocaleString is NumberFormat's format).
const numberFormat = new Intl.NumberFormat('en-US');
const fmt = (n: number) => numberFormat.format(n);

function percent(count: number, rows: number): string {
  if (!rows) return '0 %';
  const p = (100 * count) / rows;
  return `${p > 0 && p < 0.1 ? '< 0.1' : p.toFixed(p < 10 ? 1 : 0)} %`;
}

/** A button that sets the column's filter to `filter` (`label` for its tooltip and screen readers). */
function filterButton(
  className: string,
  filter: string,
  label: string,
  onFilter: (text: string) => void,
  text?: string,
) {
  const b = h('button', {
    className,
    text,
    title: `${label} — click to filter to these rows`,
    attrs: { type: 'button' },
  });
  b.dataset.filter = filter;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onFilter(filter);
  });
  return b;
}

function histogram(bins: readonly InsightBin[], rows: number, onFilter: (text: string) => void): HTMLElement {
  const most = Math.max(1, ...bins.map((b) => b.count));
  const box = h('div', { className: 'mt-ihist', attrs: { role: 'group', 'aria-label': 'Histogram' } });
  for (const bin of bins) {
    const label = `${bin.kind === 'bin' ? '' : bin.kind === 'under' ? 'Below the 1st percentile: ' : 'Above the 99th percentile: '}${bin.label}: ${fmt(bin.count)} rows (${percent(bin.count, rows)})`;
    const bar = filterButton(`mt-ibar mt-ibar-${bin.kind}`, bin.filter, label, onFilter);
    const fill = h('span', { className: 'mt-ifill' });
    // A bin with rows is never drawn empty.
    fill.style.height = `${bin.count ? Math.max(6, (100 * bin.count) / most) : 0}%`;
    bar.append(fill);
    if (bin.kind !== 'bin') bar.append(h('span', { className: 'mt-iout', text: bin.kind === 'under' ? '<' : '>' }));
    box.append(bar);
  }
  return box;
}

function topValues(insight: ValuesInsight, onFilter: (text: string) => void): HTMLElement {
  const box = h('div', { className: 'mt-itop' });
  for (const v of insight.top) {
    const share = percent(v.count, insight.rows);
    const label = `${v.text}: ${fmt(v.count)} rows (${share})`;
    const b = v.filter
      ? filterButton('mt-ival', v.filter, label, onFilter)
      : h('span', { className: 'mt-ival', title: label, attrs: { 'aria-label': label } });
    b.style.setProperty('--mt-share', `${(100 * v.count) / Math.max(1, insight.rows)}%`);
    b.append(
      h('span', { className: 'mt-ival-text', text: v.text }),
      h('span', { className: 'mt-ival-n', text: share }),
    );
    box.append(b);
  }
  if (insight.other) box.append(h('div', { className: 'mt-imeta', text: `${fmt(insight.other)} other` }));
  return box;
}

/** The distinct count's text; "counting distinct…" until it is counted (a frame after the strip). */
function distinctText(insight: ColumnInsight): string {
  if (insight.distinct === undefined) return 'counting distinct…';
  return `${insight.distinctCapped ? '≥ ' : ''}${fmt(insight.distinct)} distinct`;
}

/** The line of missing share (a button filtering to the empty cells) and distinct count. */
function counts(insight: ColumnInsight, onFilter: (text: string) => void): HTMLElement {
  const line = h('div', { className: 'mt-imeta' });
  const missing = `${percent(insight.missing, insight.rows)} missing`;
  if (insight.missing)
    line.append(filterButton('mt-imissing', 'empty', `${missing} (${fmt(insight.missing)} rows)`, onFilter, missing));
  else line.append(h('span', { text: missing }));
  const distinct = distinctText(insight);
  const pending = insight.distinct === undefined;
  line.append(
    h('span', { className: pending ? 'mt-idistinct mt-idistinct-pending' : 'mt-idistinct', text: ` · ${distinct}` }),
  );
  line.title = `${missingPercent(insight).toFixed(2)} % missing, ${pending ? 'distinct values not counted yet' : `${distinct} values`}${insight.distinctCapped ? ' (counted up to this many)' : ''}`;
  return line;
}

/** One column's strip. */
function insightCell(insight: ColumnInsight, zone: TimeZoneMode, onFilter: (text: string) => void): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (insight.kind === 'number') {
    out.push(histogram(insight.bins, insight.rows, onFilter));
    if (insight.bins.length) {
      const range = `${fmt(insight.min)} – ${fmt(insight.max)}`;
      out.push(
        h('div', { className: 'mt-imeta mt-irange', text: range, title: `min ${insight.min}, max ${insight.max}` }),
      );
    }
  } else if (insight.kind === 'time') {
    if (insight.distinct) {
      out.push(h('div', { className: 'mt-imeta', text: formatTime(insight.min, zone), title: 'first' }));
      out.push(h('div', { className: 'mt-imeta', text: formatTime(insight.max, zone), title: 'last' }));
    }
  } else out.push(topValues(insight, onFilter));
  out.push(counts(insight, onFilter));
  return out;
}

/** The strip: one cell per column (sized, pinned and hidden with it); `fill` puts the insights in. */
export class InsightsRow {
  readonly element: HTMLElement;
  private readonly cells = new Map<number, HTMLElement>();

  constructor(
    table: Table,
    cols: GridColumns,
    private readonly onFilter: (col: number, text: string) => void,
  ) {
    this.element = h('div', { className: 'mt-row mt-irow', attrs: { 'aria-label': 'Column insights' } });
    this.element.appendChild(cols.makeCell(GUTTER, 'mt-cell mt-gutter mt-inote'));
    for (const i of cols.order) {
      const cell = cols.makeCell(i, 'mt-cell mt-icell');
      cell.dataset.col = String(i);
      cell.setAttribute('aria-label', `Insights of ${table.columns[i].name}`);
      this.cells.set(i, cell);
      this.element.appendChild(cell);
    }
  }

  /** Puts the insights in; data-complete says whether every column's are in with their distinct counts. */
  fill(insights: readonly (ColumnInsight | undefined)[], zone: TimeZoneMode): void {
    let complete = true;
    for (const [i, cell] of this.cells) {
      const insight = insights[i];
      cell.replaceChildren(...(insight ? insightCell(insight, zone, (text) => this.onFilter(i, text)) : []));
      if (insight?.distinct === undefined) complete = false;
    }
    this.element.dataset.complete = String(complete);
  }

  /** Marks the bin or value whose filter is the column's filter now. */
  markFilters(filters: ReadonlyMap<number, string>): void {
    for (const [i, cell] of this.cells) {
      const text = filters.get(i)?.trim();
      for (const b of cell.querySelectorAll<HTMLElement>('[data-filter]'))
        b.setAttribute('aria-pressed', String(b.dataset.filter === text));
    }
  }
}
