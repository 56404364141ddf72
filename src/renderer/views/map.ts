// The Map view: datasource locations on an offline outline (Natural Earth 1:110m countries from the
// world-atlas package, bundled: no tiles, no network), with a graticule, lat/lon labels and a scale bar so a
// city-sized view is still legible. Markers coloured by the latest AQI category of the chosen metric and
// lettered with it (G, M, USG, U, VU, H: colour is never the only signal); datasources at one spot (a sensor at
// its reference site) share a split marker and one hover that lists each. Tracks for datasources that moved,
// wheel to zoom, drag to pan; the canvas fills the output's width and refits when it is resized.
// Drawn on a canvas; the hover text is set with textContent.

import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { AQI_CATEGORIES } from '../../core/aq/aqi';
import { swatch, themeVar } from '../dom/chart-view';
import { h } from '../dom/h';
import { metricSelectFor } from '../dom/metric-select';
import { type MapPoint, mapPoints, unitOf } from '../model/aq-views';
import { formatNumber, formatTime } from '../model/format';
import {
  antimeridianRings,
  clusterMarkers,
  degreeText,
  fitView,
  graticule,
  placeLabels,
  scaleBar,
  spotLabel,
  type ViewBox,
} from '../model/map-geometry';
import { hasCoordinates } from '../model/table-shape';
import type { Panel, PanelContext, ViewDefinition } from './view';

type Ring = Array<[number, number]>;
let outlineRings: Ring[] | undefined;

/** Country outlines as rings of [lon, lat] (antimeridian-safe, see antimeridianRings), converted from TopoJSON once. */
function outline(): Ring[] {
  if (outlineRings) return outlineRings;
  const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
  const fc = feature(topo, topo.objects.countries);
  const rings: Ring[] = [];
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const polygon of polygons) for (const ring of polygon as Ring[]) rings.push(...antimeridianRings(ring));
  }
  outlineRings = rings;
  return rings;
}

type Cluster = { x: number; y: number; items: MapPoint[] };

/** The canvas's text alternative: how many datasources at how many places, and which share one. */
function spotsText(datasources: number, clusters: Cluster[]): string {
  const shared = clusters.filter((c) => c.items.length > 1).map((c) => c.items.map((p) => p.group).join(' + '));
  const at = shared.length ? `; sharing a place: ${shared.join('; ')}` : '';
  return `Map of ${datasources} datasources at ${clusters.length} places${at}`;
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

  /** Equirectangular with the centre latitude's aspect: good for a city or a region. */
  private project(lon: number, lat: number): [number, number] {
    const v = this.view!;
    const k = Math.cos((v.lat * Math.PI) / 180);
    return [this.width / 2 + (lon - v.lon) * v.scale, this.height / 2 - ((lat - v.lat) * v.scale) / k];
  }

  private unproject(x: number, y: number): [number, number] {
    const v = this.view!;
    const k = Math.cos((v.lat * Math.PI) / 180);
    return [v.lon + (x - this.width / 2) / v.scale, v.lat - ((y - this.height / 2) * k) / v.scale];
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

  private paint(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !this.view) return;
    const dpr = this.canvas.width / this.width;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const fg = themeVar(this.element, '--vscode-foreground', '#ccc');
    const muted = themeVar(this.element, '--vscode-descriptionForeground', '#888');
    const font = themeVar(this.element, '--vscode-font-family', 'sans-serif');
    ctx.fillStyle = themeVar(this.element, '--vscode-editor-background', '#1f1f1f');
    ctx.fillRect(0, 0, this.width, this.height);
    this.paintOutline(ctx, muted);
    this.paintGraticule(ctx, muted, font);
    this.paintTracks(ctx, fg);
    this.clusters = this.paintMarkers(ctx, fg, font);
    this.paintLabels(ctx, fg, font);
    this.paintScale(ctx, fg, font);
  }

  private paintOutline(ctx: CanvasRenderingContext2D, stroke: string): void {
    ctx.strokeStyle = stroke;
    ctx.fillStyle = 'rgba(128,128,128,0.12)';
    ctx.lineWidth = 1;
    for (const ring of outline()) {
      ctx.beginPath();
      ring.forEach(([lon, lat], i) => {
        const [x, y] = this.project(lon, lat);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
  }

  /** Faint lines of latitude and longitude at a nice step, labelled on the left and bottom edges. */
  private paintGraticule(ctx: CanvasRenderingContext2D, colour: string, font: string): void {
    const [west, north] = this.unproject(0, 0);
    const [east, south] = this.unproject(this.width, this.height);
    const lons = graticule(west, east, Math.max(3, Math.round(this.width / 140)));
    const lats = graticule(south, north, Math.max(3, Math.round(this.height / 110)), 90);
    const step = Math.min(lons.step, lats.step);
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.globalAlpha = 0.35;
    ctx.setLineDash([2, 4]);
    ctx.beginPath();
    for (const lon of lons.values) {
      const [x] = this.project(lon, 0);
      ctx.moveTo(x, 0);
      ctx.lineTo(x, this.height);
    }
    for (const lat of lats.values) {
      const [, y] = this.project(0, lat);
      ctx.moveTo(0, y);
      ctx.lineTo(this.width, y);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.fillStyle = colour;
    ctx.font = `10px ${font}`;
    for (const lon of lons.values)
      ctx.fillText(degreeText(lon, step, 'lon'), this.project(lon, 0)[0] + 3, this.height - 4);
    for (const lat of lats.values) ctx.fillText(degreeText(lat, step, 'lat'), 4, this.project(0, lat)[1] - 3);
    ctx.restore();
  }

  /** A scale bar at the bottom right, true at the view's centre latitude. */
  private paintScale(ctx: CanvasRenderingContext2D, fg: string, font: string): void {
    const bar = scaleBar(this.view!);
    const x1 = this.width - 14;
    const x0 = x1 - bar.px;
    const y = this.height - 14;
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
    ctx.fillText(bar.text, (x0 + x1) / 2, y - 4);
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
  private paintMarkers(ctx: CanvasRenderingContext2D, fg: string, font: string): Cluster[] {
    const clusters = clusterMarkers(
      this.points.map((p) => {
        const last = p.track[p.track.length - 1];
        const [x, y] = this.project(last.lon, last.lat);
        return { x, y, item: p };
      }),
    );
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
    this.canvas.setAttribute('aria-label', spotsText(this.points.length, clusters));
    return clusters;
  }

  /** Datasource names (ids where unnamed) that fit without overlapping a marker or another label (placeLabels). */
  private paintLabels(ctx: CanvasRenderingContext2D, fg: string, font: string): void {
    ctx.fillStyle = fg;
    ctx.font = `11px ${font}`;
    const texts = this.clusters.map((m) =>
      spotLabel(
        m.items.map((p) => p.group),
        this.ctx.datasourceNames,
      ),
    );
    const spots = placeLabels(
      this.clusters.map((m, i) => ({
        x: m.x,
        y: m.y,
        reach: m.items.length > 1 ? 16 : 12,
        w: ctx.measureText(texts[i]).width,
      })),
      this.width,
      this.height,
    );
    spots.forEach((at, i) => {
      if (at) ctx.fillText(texts[i], at.x, at.y + 10);
    });
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
