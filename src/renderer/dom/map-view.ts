// The Map view: datasource locations on an offline outline (Natural Earth 1:110m countries from the
// world-atlas package, bundled: no tiles, no network). Markers coloured by the latest AQI category of the
// chosen metric (the category name in the hover and the legend), tracks for datasources that moved,
// wheel to zoom, drag to pan. Drawn on a canvas; the hover text is set with textContent.

import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { AQI_CATEGORIES } from '../../core/aq/aqi';
import { type MapPoint, mapPoints, unitOf } from '../model/aq-views';
import { formatNumber, formatTime } from '../model/format';
import type { Panel, PanelContext } from './aq-panels';
import { swatch, themeVar } from './chart-view';
import { h } from './h';
import { metricSelectFor } from './metric-select';

type Ring = Array<[number, number]>;
let outlineRings: Ring[] | undefined;

/** Country outlines as rings of [lon, lat], converted from TopoJSON once. */
function outline(): Ring[] {
  if (outlineRings) return outlineRings;
  const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
  const fc = feature(topo, topo.objects.countries);
  const rings: Ring[] = [];
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    if (g.type === 'Polygon') rings.push(...(g.coordinates as Ring[]));
    else if (g.type === 'MultiPolygon') for (const p of g.coordinates) rings.push(...(p as Ring[]));
  }
  outlineRings = rings;
  return rings;
}

interface ViewBox {
  /** Centre. */
  lon: number;
  lat: number;
  /** Pixels per degree of longitude. */
  scale: number;
}

export class MapPanel implements Panel {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly canvas = h('canvas', { className: 'mt-map-canvas', attrs: { role: 'img' } });
  private readonly tip = h('div', { className: 'mt-map-tip', attrs: { role: 'tooltip' } });
  private readonly note = h('span', { className: 'mt-status mt-map-note' });
  private points: MapPoint[] = [];
  private view?: ViewBox;
  private readonly width = 760;
  private readonly height = 420;

  constructor(private readonly ctx: PanelContext) {
    this.select = metricSelectFor(ctx.table, 'mt-metric mt-map-metric', true);
    this.select.addEventListener('change', () => this.draw());
    const legend = h('div', { className: 'mt-aqi-legend' }, [
      h('span', { text: 'Latest US EPA AQI category: ' }),
      ...AQI_CATEGORIES.map((c) =>
        h('span', { className: 'mt-legend-item' }, [swatch(c.colour), h('span', { text: c.name })]),
      ),
      h('span', { className: 'mt-legend-item' }, [swatch('transparent'), h('span', { text: 'no category' })]),
    ]);
    const frame = h('div', { className: 'mt-map-frame' }, [this.canvas, this.tip]);
    this.tip.hidden = true;
    this.element = h('div', { className: 'mt-panel mt-map' }, [
      h('div', { className: 'mt-toolbar' }, [h('label', { text: 'Metric ' }), this.select, this.note]),
      frame,
      legend,
    ]);
    this.canvas.width = this.width;
    this.canvas.height = this.height;
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('pointerdown', (e) => this.onDrag(e));
    this.canvas.addEventListener('pointermove', (e) => this.onHover(e));
    this.canvas.addEventListener('pointerleave', () => {
      this.tip.hidden = true;
    });
  }

  private fit(): ViewBox {
    let minLon = 180;
    let maxLon = -180;
    let minLat = 90;
    let maxLat = -90;
    for (const p of this.points)
      for (const t of p.track) {
        minLon = Math.min(minLon, t.lon);
        maxLon = Math.max(maxLon, t.lon);
        minLat = Math.min(minLat, t.lat);
        maxLat = Math.max(maxLat, t.lat);
      }
    if (minLon > maxLon) return { lon: 0, lat: 20, scale: this.width / 360 };
    const kx = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
    const spanLon = Math.max(0.02, (maxLon - minLon) * 1.3);
    const spanLat = Math.max(0.02, (maxLat - minLat) * 1.3);
    const scale = Math.min(this.width / spanLon, this.height / (spanLat / kx));
    return { lon: (minLon + maxLon) / 2, lat: (minLat + maxLat) / 2, scale };
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
    this.view = this.fit();
    this.paint();
  }

  private paint(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !this.view) return;
    const fg = themeVar(this.element, '--vscode-foreground', '#ccc');
    const muted = themeVar(this.element, '--vscode-descriptionForeground', '#888');
    ctx.fillStyle = themeVar(this.element, '--vscode-editor-background', '#1f1f1f');
    ctx.fillRect(0, 0, this.width, this.height);
    ctx.strokeStyle = muted;
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
    const marks = new Map<string, { x: number; y: number; names: string[] }>();
    for (const p of this.points) {
      if (p.track.length > 1) {
        ctx.strokeStyle = fg;
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
      const last = p.track[p.track.length - 1];
      const [x, y] = this.project(last.lon, last.lat);
      ctx.beginPath();
      ctx.arc(x, y, 7, 0, 2 * Math.PI);
      ctx.fillStyle = p.category?.colour ?? 'transparent';
      ctx.fill();
      ctx.strokeStyle = fg;
      ctx.lineWidth = 1.5;
      ctx.stroke();
      // Datasources at one place (a sensor at its reference site) share one label.
      const key = `${Math.round(x / 3)},${Math.round(y / 3)}`;
      const same = marks.get(key);
      if (same) same.names.push(p.group);
      else marks.set(key, { x, y, names: [p.group] });
    }
    ctx.fillStyle = fg;
    ctx.font = `11px ${themeVar(this.element, '--vscode-font-family', 'sans-serif')}`;
    // Labels never overlap each other or a marker: right of the marker, else left, else none (hover names it).
    const taken: Box[] = [...marks.values()].map((m) => ({ x: m.x - 8, y: m.y - 8, w: 16, h: 16 }));
    for (const m of marks.values()) {
      const text = m.names.join(', ');
      const w = ctx.measureText(text).width;
      const at = freeSpot(taken, [
        { x: m.x + 10, y: m.y - 7, w, h: 13 },
        { x: m.x - 10 - w, y: m.y - 7, w, h: 13 },
      ]);
      if (at) ctx.fillText(text, at.x, at.y + 10);
    }
  }

  private nearest(x: number, y: number): MapPoint | undefined {
    let best: MapPoint | undefined;
    let bestD = 12 * 12;
    for (const p of this.points) {
      const last = p.track[p.track.length - 1];
      const [px, py] = this.project(last.lon, last.lat);
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    return best;
  }

  private canvasXY(e: MouseEvent): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    return [((e.clientX - r.left) * this.width) / r.width, ((e.clientY - r.top) * this.height) / r.height];
  }

  private onHover(e: PointerEvent): void {
    if (!this.view) return;
    const [x, y] = this.canvasXY(e);
    const p = this.nearest(x, y);
    if (!p) {
      this.tip.hidden = true;
      return;
    }
    const col = Number(this.select.value);
    const unit = col >= 0 ? unitOf(this.ctx.table.columns[col]) : '';
    const last = p.track[p.track.length - 1];
    const lines = [
      p.group,
      Number.isNaN(p.latestValue)
        ? 'no value'
        : `${formatNumber(p.latestValue)} ${unit} at ${formatTime(p.latestTime, this.ctx.timeZone())}`,
      p.category ? `AQI category: ${p.category.name}` : 'no AQI category for this metric',
      `${formatNumber(last.lat)}, ${formatNumber(last.lon)}${p.track.length > 1 ? ` (moved ${p.track.length - 1}×)` : ''}`,
    ];
    this.tip.textContent = lines.join('\n');
    this.tip.hidden = false;
    this.tip.style.left = `${Math.min(x + 12, this.width - 200)}px`;
    this.tip.style.top = `${y + 12}px`;
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

  destroy(): void {}
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The first of `choices` that overlaps none of `taken` (then taken too). */
function freeSpot(taken: Box[], choices: Box[]): Box | undefined {
  const free = choices.find(
    (b) => !taken.some((t) => b.x < t.x + t.w && t.x < b.x + b.w && b.y < t.y + t.h && t.y < b.y + b.h),
  );
  if (free) taken.push(free);
  return free;
}
