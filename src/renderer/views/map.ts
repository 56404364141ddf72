// The Map view: datasource locations on an offline outline (Natural Earth 1:110m countries from the
// world-atlas package, bundled: no tiles, no network), with a graticule, lat/lon labels and a scale bar so a
// city-sized view is still legible. Markers coloured by the latest AQI category of the chosen metric and
// lettered with it (G, M, USG, U, VU, H: colour is never the only signal); datasources at one spot (a sensor at
// its reference site) share a split marker and one hover that lists each. Tracks for datasources that moved,
// wheel to zoom, drag to pan; the canvas fills the output's width and refits when it is resized.
// Drawn on a canvas; the hover text is set with textContent.

import { AQI_CATEGORIES } from '../../core/aq/aqi';
import { fitView, spotLabel, type ViewBox } from '../../core/aq/map-geometry';
import { type MapScene, type MapSpot, mapScene, projection, type XY } from '../../core/aq/map-scene';
import { MAP_CREDIT, svgMap } from '../../core/notebook/export/svg-map';
import { rowsTimeRange } from '../../core/table/chart-columns';
import { swatch, themeVar } from '../dom/chart-view';
import { h } from '../dom/h';
import { metricSelectFor } from '../dom/metric-select';
import { type MapPoint, mapPoints, unitOf } from '../model/aq-views';
import { formatNumber, formatTime } from '../model/format';
import { hasCoordinates } from '../model/table-shape';
import type { Panel, PanelContext, ViewDefinition, ViewImage } from './view';

type Cluster = MapSpot<MapPoint>;

/** The canvas's text alternative: how many datasources at how many places, which share one, the towns named. */
function spotsText(datasources: number, scene: MapScene<MapPoint>): string {
  const shared = scene.spots.filter((c) => c.items.length > 1).map((c) => c.items.map((p) => p.group).join(' + '));
  const at = shared.length ? `; sharing a place: ${shared.join('; ')}` : '';
  const towns = scene.places.length ? `; towns: ${scene.places.map((p) => p.name).join(', ')}` : '';
  return `Map of ${datasources} datasources at ${scene.spots.length} places${at}${towns}`;
}

/** A legend key: the category's colour with its letters. */
function categoryKey(colour: string, abbr: string, textColour: string): HTMLElement {
  const el = swatch(colour, 'mt-swatch mt-map-key');
  el.textContent = abbr;
  el.style.color = textColour;
  return el;
}

class MapPanel implements Panel {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly canvas = h('canvas', { className: 'mt-map-canvas', attrs: { role: 'img' } });
  private readonly tip = h('div', { className: 'mt-map-tip', attrs: { role: 'tooltip' } });
  private readonly note = h('span', { className: 'mt-status mt-map-note' });
  private points: MapPoint[] = [];
  private clusters: Cluster[] = [];
  private view?: ViewBox;
  /** Whether the user zoomed or panned (a resize then keeps the view; else it refits). */
  private moved = false;
  private width = 760;
  private height = 420;
  private resize?: ResizeObserver;
  private frame = 0;

  constructor(private readonly ctx: PanelContext) {
    this.select = metricSelectFor(ctx.table, 'mt-metric mt-map-metric', true);
    this.select.addEventListener('change', () => this.draw());
    const legend = h('div', { className: 'mt-aqi-legend' }, [
      h('span', { text: 'Latest US EPA AQI category: ' }),
      ...AQI_CATEGORIES.map((c) =>
        h('span', { className: 'mt-legend-item' }, [
          categoryKey(c.colour, c.abbr, c.textColour),
          h('span', { text: c.name }),
        ]),
      ),
      h('span', { className: 'mt-legend-item' }, [swatch('transparent'), h('span', { text: 'no category' })]),
      h('span', { className: 'mt-legend-item' }, [
        categoryKey('transparent', '2', ''),
        h('span', { text: 'split: datasources at one spot' }),
      ]),
      h('span', { className: 'mt-legend-item mt-map-credit', text: MAP_CREDIT }),
    ]);
    const frame = h('div', { className: 'mt-map-frame' }, [this.canvas, this.tip]);
    this.tip.hidden = true;
    this.element = h('div', { className: 'mt-panel mt-map' }, [
      h('div', { className: 'mt-toolbar' }, [h('label', { text: 'Metric ' }), this.select, this.note]),
      frame,
      legend,
    ]);
    this.listen();
  }

  private listen(): void {
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('pointerdown', (e) => this.onDrag(e));
    this.canvas.addEventListener('pointermove', (e) => this.onHover(e));
    this.canvas.addEventListener('pointerleave', () => {
      this.tip.hidden = true;
    });
    if (typeof ResizeObserver === 'undefined') return;
    this.resize = new ResizeObserver(() => {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        if (!this.element.hidden && this.view && this.sizeCanvas()) {
          if (!this.moved) this.view = this.fit();
          this.paint();
        }
      });
    });
    this.resize.observe(this.element);
  }

  /** The canvas fills the output's width (height in proportion, 300-520 px); true when the size changed. */
  private sizeCanvas(): boolean {
    const width = Math.max(320, Math.floor((this.element.clientWidth || 774) - 14));
    const height = Math.round(Math.min(520, Math.max(300, width * 0.55)));
    if (width === this.width && height === this.height && this.canvas.width) return false;
    const dpr = globalThis.devicePixelRatio || 1;
    this.width = width;
    this.height = height;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    return true;
  }

  private fit(): ViewBox {
    return fitView(
      this.points.flatMap((p) => p.track),
      this.width,
      this.height,
    );
  }

  private project(lon: number, lat: number): XY {
    return projection(this.view!, this.width, this.height).project(lon, lat);
  }

  private unproject(x: number, y: number): XY {
    return projection(this.view!, this.width, this.height).unproject(x, y);
  }

  draw(): void {
    const col = Number(this.select.value);
    this.points = mapPoints(this.ctx.table, this.ctx.rows(), col >= 0 ? col : -1);
    const moved = this.points.filter((p) => p.track.length > 1).length;
    this.note.textContent = this.points.length
      ? `${this.points.length} datasources${moved ? `, ${moved} moved (track drawn)` : ''}; wheel to zoom, drag to pan`
      : 'No locationLatitude/locationLongitude columns in this result.';
    this.sizeCanvas();
    this.moved = false;
    this.view = this.fit();
    this.paint();
  }

  /** The scene drawn now (core/aq/map-scene.ts), texts measured with `measure`. */
  private scene(measure: (text: string, size: number) => number): MapScene<MapPoint> {
    return mapScene({
      view: this.view!,
      width: this.width,
      height: this.height,
      marks: this.points.map((p) => ({ ...p.track[p.track.length - 1], item: p })),
      text: (items) =>
        spotLabel(
          items.map((p) => p.group),
          this.ctx.datasourceNames,
        ),
      measure,
    });
  }

  private paint(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !this.view) return;
    const dpr = this.canvas.width / this.width;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const fg = themeVar(this.element, '--vscode-foreground', '#ccc');
    const muted = themeVar(this.element, '--vscode-descriptionForeground', '#888');
    const font = themeVar(this.element, '--vscode-font-family', 'sans-serif');
    const scene = this.scene((text, size) => {
      ctx.font = `${size}px ${font}`;
      return ctx.measureText(text).width;
    });
    ctx.fillStyle = themeVar(this.element, '--vscode-editor-background', '#1f1f1f');
    ctx.fillRect(0, 0, this.width, this.height);
    this.paintLand(ctx, scene, muted);
    this.paintGraticule(ctx, scene, muted, font);
    this.paintTracks(ctx, fg);
    this.paintPlaces(ctx, scene, muted, font);
    this.paintMarkers(ctx, scene.spots, fg, font);
    this.clusters = scene.spots;
    this.canvas.setAttribute('aria-label', spotsText(this.points.length, scene));
    this.paintLabels(ctx, scene.spots, fg, font);
    this.paintScale(ctx, scene, fg, font);
  }

  private static stroke(ctx: CanvasRenderingContext2D, lines: readonly XY[][], close = false): void {
    ctx.beginPath();
    for (const line of lines) {
      line.forEach(([x, y], i) => {
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      if (close) ctx.closePath();
    }
  }

  /**
   * Land filled and outlined (countries at world scale; the 1:50m coast, country borders and, dashed, state /
   * province boundaries at region and city scale).
   */
  private paintLand(ctx: CanvasRenderingContext2D, scene: MapScene<MapPoint>, stroke: string): void {
    ctx.save();
    ctx.strokeStyle = stroke;
    ctx.fillStyle = 'rgba(128,128,128,0.12)';
    ctx.lineWidth = 1;
    MapPanel.stroke(ctx, scene.land, true);
    ctx.fill('evenodd');
    ctx.stroke();
    MapPanel.stroke(ctx, scene.borders);
    ctx.stroke();
    ctx.setLineDash([6, 3]);
    MapPanel.stroke(ctx, scene.admin1);
    ctx.stroke();
    ctx.restore();
  }

  /** Faint lines of latitude and longitude at a nice step, labelled on the left and bottom edges. */
  private paintGraticule(ctx: CanvasRenderingContext2D, scene: MapScene<MapPoint>, colour: string, font: string): void {
    const { lons, lats } = scene.graticule;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.globalAlpha = 0.35;
    ctx.setLineDash([2, 4]);
    ctx.beginPath();
    for (const { x } of lons) {
      ctx.moveTo(x, 0);
      ctx.lineTo(x, this.height);
    }
    for (const { y } of lats) {
      ctx.moveTo(0, y);
      ctx.lineTo(this.width, y);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.fillStyle = colour;
    ctx.font = `10px ${font}`;
    for (const { x, text } of lons) ctx.fillText(text, x + 3, this.height - 4);
    for (const { y, text } of lats) ctx.fillText(text, 4, y - 3);
    ctx.restore();
  }

  /** Populated places: a small ring and the name, where both fit clear of the datasources (mapScene). */
  private paintPlaces(ctx: CanvasRenderingContext2D, scene: MapScene<MapPoint>, colour: string, font: string): void {
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 1;
    ctx.font = `italic 10px ${font}`;
    for (const p of scene.places) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, 2.5, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fillText(p.name, p.label.x, p.label.y + 9);
    }
    ctx.restore();
  }

  /** A scale bar at the bottom right, true at the view's centre latitude. */
  private paintScale(ctx: CanvasRenderingContext2D, scene: MapScene<MapPoint>, fg: string, font: string): void {
    const { x0, x1, y, text } = scene.scale;
    ctx.save();
    ctx.strokeStyle = fg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x0, y - 5);
    ctx.lineTo(x0, y);
    ctx.lineTo(x1, y);
    ctx.lineTo(x1, y - 5);
    ctx.stroke();
    ctx.fillStyle = fg;
    ctx.font = `11px ${font}`;
    ctx.textAlign = 'center';
    ctx.fillText(text, (x0 + x1) / 2, y - 4);
    ctx.restore();
  }

  private paintTracks(ctx: CanvasRenderingContext2D, fg: string): void {
    ctx.strokeStyle = fg;
    ctx.lineWidth = 1;
    for (const p of this.points) {
      if (p.track.length < 2) continue;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      p.track.forEach((t, i) => {
        const [x, y] = this.project(t.lon, t.lat);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
      ctx.setLineDash([]);
      for (const t of p.track.slice(0, -1)) {
        const [x, y] = this.project(t.lon, t.lat);
        ctx.beginPath();
        ctx.arc(x, y, 3, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
  }

  /**
   * One marker per spot: a disc in the category's colour with its letters; datasources at one spot share a
   * disc split into equal slices (each its own colour and letters) with their count beside it.
   */
  private paintMarkers(ctx: CanvasRenderingContext2D, clusters: Cluster[], fg: string, font: string): void {
    for (const c of clusters) {
      const n = c.items.length;
      const r = n > 1 ? 12 : 9;
      c.items.forEach((p, i) => {
        const a0 = -Math.PI / 2 + (2 * Math.PI * i) / n;
        const a1 = a0 + (2 * Math.PI) / n;
        ctx.beginPath();
        if (n > 1) ctx.moveTo(c.x, c.y);
        ctx.arc(c.x, c.y, r, a0, a1);
        ctx.closePath();
        ctx.fillStyle = p.category?.colour ?? 'transparent';
        ctx.fill();
        ctx.strokeStyle = fg;
        ctx.lineWidth = 1.5;
        ctx.stroke();
        if (!p.category) return;
        const mid = (a0 + a1) / 2;
        const [lx, ly] = n > 1 ? [c.x + Math.cos(mid) * r * 0.55, c.y + Math.sin(mid) * r * 0.55] : [c.x, c.y];
        ctx.fillStyle = p.category.textColour;
        ctx.font = `600 ${n > 2 || p.category.abbr.length > 1 ? 7 : n > 1 ? 9 : 10}px ${font}`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(p.category.abbr, lx, ly + 0.5);
      });
      if (n > 1) {
        ctx.beginPath();
        ctx.arc(c.x, c.y, r + 3, 0, 2 * Math.PI);
        ctx.strokeStyle = fg;
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  /** Datasource names (ids where unnamed) where they fit without overlapping a marker or another label. */
  private paintLabels(ctx: CanvasRenderingContext2D, spots: Cluster[], fg: string, font: string): void {
    ctx.fillStyle = fg;
    ctx.font = `11px ${font}`;
    for (const s of spots) if (s.label) ctx.fillText(s.text, s.label.x, s.label.y + 10);
  }

  /** The map as drawn now (view, names, places) as SVG, texts measured at 0.6 em a character (no canvas there). */
  image(): ViewImage | undefined {
    if (!this.view || !this.points.length) return undefined;
    const metric = this.ctx.table.columns[Number(this.select.value)];
    const unit = metric ? unitOf(metric) : '';
    const categorised = this.points.some((p) => p.category);
    const what = metric ? `${metric.name}${unit ? ` [${unit}]` : ''}` : 'no metric';
    const subtitle = categorised
      ? `Markers: the latest ${what} as its US EPA AQI category (letters and colour)`
      : `Markers: datasource locations (${what} has no AQI category)`;
    const scene = this.scene((text, size) => text.length * size * 0.6);
    const svg = svgMap(scene, {
      title: `Map of ${this.points.length} datasources`,
      subtitle,
      timeRange: rowsTimeRange(this.ctx.table, this.ctx.rows()),
    });
    return { svg, name: `map ${metric?.name ?? ''}`.trim() };
  }

  private nearest(x: number, y: number): Cluster | undefined {
    let best: Cluster | undefined;
    let bestD = 14 * 14;
    for (const c of this.clusters) {
      const d = (c.x - x) ** 2 + (c.y - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  private canvasXY(e: MouseEvent): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    return [((e.clientX - r.left) * this.width) / r.width, ((e.clientY - r.top) * this.height) / r.height];
  }

  /** The hover lines of one datasource: id and name, latest value, category, place. */
  private describe(p: MapPoint): string[] {
    const col = Number(this.select.value);
    const unit = col >= 0 ? unitOf(this.ctx.table.columns[col]) : '';
    const last = p.track[p.track.length - 1];
    const name = this.ctx.datasourceNames?.get(p.group);
    return [
      name ? `${p.group} · ${name}` : p.group,
      Number.isNaN(p.latestValue)
        ? 'no value'
        : `${formatNumber(p.latestValue)} ${unit} at ${formatTime(p.latestTime, this.ctx.timeZone())}`,
      p.category ? `AQI category: ${p.category.name} (${p.category.abbr})` : 'no AQI category for this metric',
      `${formatNumber(last.lat)}, ${formatNumber(last.lon)}${p.track.length > 1 ? ` (moved ${p.track.length - 1}×)` : ''}`,
    ];
  }

  private onHover(e: PointerEvent): void {
    if (!this.view) return;
    const [x, y] = this.canvasXY(e);
    const c = this.nearest(x, y);
    if (!c) {
      this.tip.hidden = true;
      return;
    }
    const blocks = c.items.map((p) => this.describe(p).join('\n'));
    const head = c.items.length > 1 ? `${c.items.length} datasources at this spot\n` : '';
    this.tip.textContent = head + blocks.join('\n\n');
    this.tip.hidden = false;
    this.tip.style.left = `${Math.max(0, Math.min(x + 12, this.width - 260))}px`;
    this.tip.style.top = `${Math.min(y + 12, Math.max(0, this.height - 40 - 60 * c.items.length))}px`;
  }

  private onWheel(e: WheelEvent): void {
    if (!this.view) return;
    e.preventDefault();
    const [x, y] = this.canvasXY(e);
    const [lon, lat] = this.unproject(x, y);
    const factor = e.deltaY < 0 ? 1.25 : 0.8;
    this.zoomAt(lon, lat, x, y, factor);
  }

  /** Zooms by `factor` keeping the point (lon, lat) under the canvas position (x, y). */
  zoomAt(lon: number, lat: number, x: number, y: number, factor: number): void {
    if (!this.view) return;
    this.moved = true;
    this.view.scale = Math.min(1e6, Math.max(this.width / 400, this.view.scale * factor));
    const [lon2, lat2] = this.unproject(x, y);
    this.view.lon += lon - lon2;
    this.view.lat = Math.max(-85, Math.min(85, this.view.lat + lat - lat2));
    this.paint();
  }

  private onDrag(e: PointerEvent): void {
    if (!this.view) return;
    const start = this.canvasXY(e);
    const origin = { ...this.view };
    this.canvas.setPointerCapture?.(e.pointerId);
    const move = (ev: PointerEvent) => {
      const [x, y] = this.canvasXY(ev);
      const k = Math.cos((origin.lat * Math.PI) / 180);
      this.moved = true;
      this.view = {
        ...origin,
        lon: origin.lon - (x - start[0]) / origin.scale,
        lat: Math.max(-85, Math.min(85, origin.lat + ((y - start[1]) * k) / origin.scale)),
      };
      this.paint();
    };
    const up = () => {
      this.canvas.removeEventListener('pointermove', move);
      this.canvas.removeEventListener('pointerup', up);
    };
    this.canvas.addEventListener('pointermove', move);
    this.canvas.addEventListener('pointerup', up);
  }

  destroy(): void {
    this.resize?.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}

export const mapView: ViewDefinition = {
  name: 'map',
  title: 'Map',
  tooltip: 'Datasource locations on an offline map, coloured by the latest AQI category',
  // A result without coordinates (a sql aggregate, say) has nothing to map.
  applies: hasCoordinates,
  create: (ctx) => new MapPanel(ctx),
};
