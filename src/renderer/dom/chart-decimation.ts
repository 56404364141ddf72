// The chart's lines and QC-invalid marks as uPlot draws them, recomputed at every draw (zoom, resize): each line
// through its per-pixel decimation (renderer/model/decimate.ts) of the points in view, at the plot's own pixel
// columns; each line's invalid values as hollow marks, one per distinct pixel (renderer/model/decimate.ts
// distinctPixels). uPlot keeps every real row: hover values and exports read them, not what is drawn.
//
// Why not uPlot's own linear paths (which decimate too) and points: a long line with many one-row gaps became one
// clip rectangle per gap, and one stroked path whose thousands of up-and-down segments share every scanline;
// chromium's software rasteriser spent ~200 ms per panel there (bench/renderer.bench.ts, chart-stacked). Here a gap
// breaks the path (moveTo), and a line (or the marks) is stroked in pieces of a few dozen points, each piece its own
// stroke() call: uPlot's path builder returns no path to stroke, and uPlot's `drawSeries` hook strokes the pieces
// with the series' own style (colour, width, dash, focus alpha, clipped to the plot as uPlot clips a line).
// A dense line (more than 4 points a pixel column in view) is not stroked at all but filled as one narrow bar per
// pixel column (renderer/model/decimate.ts columnBars): its zigzag of full-height segments cost ~85 ms a panel of
// 8 lines × 125,000 points to stroke in chromium's software rasteriser, the same pixels as bars ~10 ms.
import uPlot from 'uplot';
import { isNone } from '../model/chart-series';
import { columnBars, decimatedIndices, distinctPixels } from '../model/decimate';

/**
 * Points per stroked piece of a line (or joins of a dense one). 64: three panels of 40 lines × 2,000 points (many
 * dashed) rasterised in ~142 ms against ~176 ms in pieces of 32 (~147 at 128, more again past 512: chromium trace,
 * load ~2.5); a spiky line of 4 points a column ~94 ms against ~90 (such lines are bars now, barPieces).
 */
const CHUNK = 64;
/** Marks per stroked piece of the QC-invalid marks. */
const MARK_CHUNK = 64;

/** Nothing for uPlot to stroke or fill itself (a new object per series: uPlot keeps it): the hook strokes the pieces. */
function nothing(): uPlot.Series.Paths {
  return { stroke: null, fill: null, clip: null, band: null, flags: 0 };
}

/** A series' stroke colour (uPlot turns a colour option into a function). */
function strokeOf(u: uPlot, seriesIdx: number): string {
  const stroke = u.series[seriesIdx].stroke;
  return String(typeof stroke === 'function' ? stroke(u, seriesIdx) : stroke);
}

/** One line's pieces: the polyline through its decimated points in view, broken at gaps, CHUNK points a piece. */
function linePieces(u: uPlot, seriesIdx: number, idx0: number, idx1: number): Path2D[] {
  const xs = u.data[0];
  const ys = u.data[seriesIdx];
  const { min, max } = u.scales.x;
  if (min == null || max == null) return [];
  const scale = u.series[seriesIdx].scale ?? 'y';
  const pieces: Path2D[] = [];
  let path = new Path2D();
  let inPiece = 0;
  let pen = false;
  for (const i of decimatedIndices(xs, ys, [min, max], columnsOf(u), idx0, idx1)) {
    const y = ys[i];
    if (isNone(y)) {
      pen = false;
      continue;
    }
    const px = u.valToPos(xs[i], 'x', true);
    const py = u.valToPos(y, scale, true);
    if (pen) path.lineTo(px, py);
    else path.moveTo(px, py);
    pen = true;
    if (++inPiece < CHUNK) continue;
    pieces.push(path);
    path = new Path2D();
    path.moveTo(px, py);
    inPiece = 0;
  }
  pieces.push(path);
  return pieces;
}

/** The plot's pixel columns: its width in device pixels. */
function columnsOf(u: uPlot): number {
  return Math.max(1, Math.round(u.bbox.width));
}

/**
 * A dense line (more points in view than the decimation keeps: 4 a pixel column) as bars (renderer/model/decimate.ts
 * columnBars): each bar's centre x and its top and bottom y in device pixels (triples), filled `width` wide when
 * drawn; and the joins between points further apart as pieces to stroke. Undefined for a line that is not dense.
 */
function barPieces(u: uPlot, seriesIdx: number, idx0: number, idx1: number): Pieces | undefined {
  const { min, max } = u.scales.x;
  const columns = columnsOf(u);
  if (min == null || max == null || idx1 - idx0 + 1 <= 4 * columns) return undefined;
  const scale = u.series[seriesIdx].scale ?? 'y';
  const { bars, joins } = columnBars(u.data[0], u.data[seriesIdx], [min, max], columns, idx0, idx1);
  const placed = new Float64Array(bars.length);
  const step = u.bbox.width / columns;
  for (let k = 0; k < bars.length; k += 3) {
    placed[k] = u.bbox.left + (bars[k] + 0.5) * step;
    placed[k + 1] = u.valToPos(bars[k + 2], scale, true);
    placed[k + 2] = u.valToPos(bars[k + 1], scale, true);
  }
  const paths: Path2D[] = [];
  for (let k = 0; k < joins.length; k += 4 * CHUNK) {
    const path = new Path2D();
    for (let j = k; j < Math.min(joins.length, k + 4 * CHUNK); j += 4) {
      path.moveTo(u.valToPos(joins[j], 'x', true), u.valToPos(joins[j + 1], scale, true));
      path.lineTo(u.valToPos(joins[j + 2], 'x', true), u.valToPos(joins[j + 3], scale, true));
    }
    paths.push(path);
  }
  return { paths, bars: placed };
}

/** The QC-invalid marks in view: a circle of `size` CSS px at each distinct device pixel, MARK_CHUNK a piece. */
function markPieces(
  u: uPlot,
  seriesIdx: number,
  lines: ReadonlyArray<ArrayLike<number | null>>,
  { size, width }: MarkStyle,
): Path2D[] {
  const { min, max } = u.scales.x;
  if (min == null || max == null) return [];
  const xs = u.data[0];
  const radius = ((size - width) / 2) * uPlot.pxRatio; // as uPlot's points: the edge inside `size`
  const scale = u.series[seriesIdx].scale ?? 'y';
  const toPixel = (x: number, y: number): [number, number] => [u.valToPos(x, 'x', true), u.valToPos(y, scale, true)];
  const pixels = distinctPixels(xs, lines, [min, max], toPixel, u.ctx.canvas.width, u.ctx.canvas.height);
  const pieces: Path2D[] = [];
  for (let k = 0; k < pixels.length; k += 2 * MARK_CHUNK) {
    const path = new Path2D();
    for (let j = k; j < Math.min(pixels.length, k + 2 * MARK_CHUNK); j += 2) {
      path.moveTo(pixels[j] + radius, pixels[j + 1]);
      path.arc(pixels[j], pixels[j + 1], radius, 0, 2 * Math.PI);
    }
    pieces.push(path);
  }
  return pieces;
}

/** A series' pieces to stroke; marks are filled too (hollow), and stroked `width` CSS px wide (not the series'). */
interface Pieces {
  paths: Path2D[];
  /** A dense line's bars (barPieces): centre x, top y, bottom y in device pixels; filled in the stroke's colour. */
  bars?: Float64Array;
  fill?: string;
  width?: number;
}

/** The QC-invalid marks' look: a circle `size` CSS px across, its edge `width` px, filled (hollow) with `fill`. */
interface MarkStyle {
  size: number;
  width: number;
  fill: string;
}

/**
 * Strokes (and fills, when given) a series' pieces as uPlot strokes a series: its colour, width × pixel ratio,
 * dash, cap, alpha (dimmed when another line is focused), half-pixel alignment, clipped to the plot plus half the
 * width; in a saved context, so uPlot's own cached canvas state stays true.
 */
function strokePieces(u: uPlot, seriesIdx: number, drawn: Pieces): void {
  const s = u.series[seriesIdx];
  const { paths: pieces, fill } = drawn;
  const width = Math.round((drawn.width ?? s.width ?? 1) * uPlot.pxRatio * 1000) / 1000;
  if ((!pieces.length && !drawn.bars?.length) || width <= 0) return;
  const ctx = u.ctx;
  const { left, top, width: w, height: hgt } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left - width / 2, top - width / 2, w + width, hgt + width);
  ctx.clip();
  const offset = (width % 2) / 2;
  if (!fill && s.pxAlign !== 0 && offset > 0) ctx.translate(offset, offset);
  ctx.globalAlpha = s.alpha ?? 1;
  ctx.strokeStyle = strokeOf(u, seriesIdx);
  ctx.lineWidth = width;
  ctx.lineJoin = 'round';
  ctx.lineCap = s.cap ?? 'butt';
  ctx.setLineDash((!fill && s.dash) || []);
  // Every fill before any edge, as uPlot draws its points: no mark's fill hides another's edge.
  if (fill) {
    ctx.fillStyle = fill;
    for (const piece of pieces) ctx.fill(piece);
  }
  for (const piece of pieces) ctx.stroke(piece);
  if (drawn.bars) fillBars(ctx, drawn.bars, width);
  ctx.restore();
}

/** Fills each bar `width` device pixels wide, reaching `width / 2` past its ends as a stroke's edge does. */
function fillBars(ctx: CanvasRenderingContext2D, bars: Float64Array, width: number): void {
  ctx.fillStyle = ctx.strokeStyle;
  for (let k = 0; k < bars.length; k += 3)
    ctx.fillRect(bars[k] - width / 2, bars[k + 1] - width / 2, width, bars[k + 2] - bars[k + 1] + width);
}

/** What a plot's series draw with: a `paths` builder per kind, and the `drawSeries` hook that strokes their pieces. */
export interface DecimatedDrawing {
  /** For each line series. */
  line: uPlot.Series.PathBuilder;
  /** For the QC-invalid marks' series, of every line's invalid values: hollow (filled with `fill`), `width` CSS px. */
  marks: (lines: ReadonlyArray<ArrayLike<number | null>>, style: MarkStyle) => uPlot.Series.PathBuilder;
  drawSeries: (u: uPlot, seriesIdx: number) => void;
}

/** One plot's decimated drawing: each series' pieces, built when uPlot builds its paths, stroked after each series. */
export function decimatedDrawing(): DecimatedDrawing {
  const pieces = new Map<number, Pieces>();
  return {
    line: (u, seriesIdx, idx0, idx1) => {
      // A dashed line keeps its dashes: stroked, never filled as bars.
      const dense = u.series[seriesIdx].dash?.length ? undefined : barPieces(u, seriesIdx, idx0, idx1);
      pieces.set(seriesIdx, dense ?? { paths: linePieces(u, seriesIdx, idx0, idx1) });
      return nothing();
    },
    marks: (lines, style) => (u, seriesIdx) => {
      pieces.set(seriesIdx, {
        paths: markPieces(u, seriesIdx, lines, style),
        fill: style.fill,
        width: style.width,
      });
      return nothing();
    },
    drawSeries: (u, seriesIdx) => {
      const drawn = pieces.get(seriesIdx);
      if (drawn && u.series[seriesIdx].show !== false) strokePieces(u, seriesIdx, drawn);
    },
  };
}
