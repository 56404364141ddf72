// The chart's lines as uPlot draws them: a path builder that strokes each line through its per-pixel decimation
// (renderer/model/decimate.ts) of the points in view, at the plot's own pixel columns, recomputed at every draw
// (zoom, resize). uPlot keeps every real row: hover values, the QC-invalid marks (their own series) and exports
// read them, not the decimated points.
//
// Why not uPlot's own linear paths (which decimate too): a long line with many one-row gaps became one clip
// rectangle per gap, and one stroked path whose thousands of up-and-down segments share every scanline; chromium's
// software rasteriser spent ~200 ms per panel there (bench/renderer.bench.ts, chart-stacked). Here a gap breaks the
// path (moveTo), and the line is stroked in pieces of CHUNK points (uPlot strokes each path of a Map keyed by style:
// the keys are the series' colour with 0…k trailing spaces, which the canvas reads as the same colour).
import type uPlot from 'uplot';
import { decimatedIndices } from '../model/decimate';

/** Points per stroked piece of a line. */
const CHUNK = 32;

/** uPlot's `paths` for a line series: the polyline through its decimated points in view, broken at gaps. */
export const decimatedLine: uPlot.Series.PathBuilder = (u, seriesIdx, idx0, idx1) => {
  const xs = u.data[0];
  const ys = u.data[seriesIdx];
  const { min, max } = u.scales.x;
  if (min == null || max == null) return null;
  const series = u.series[seriesIdx];
  const scale = series.scale ?? 'y';
  const colour = String(typeof series.stroke === 'function' ? series.stroke(u, seriesIdx) : series.stroke);
  const pieces = new Map<string, Path2D>();
  let path = new Path2D();
  let inPiece = 0;
  let pen = false;
  for (const i of decimatedIndices(xs, ys, [min, max], Math.max(1, Math.round(u.bbox.width)), idx0, idx1)) {
    const y = ys[i];
    if (y == null) {
      pen = false;
      continue;
    }
    const px = u.valToPos(xs[i], 'x', true);
    const py = u.valToPos(y, scale, true);
    if (pen) path.lineTo(px, py);
    else path.moveTo(px, py);
    pen = true;
    if (++inPiece < CHUNK) continue;
    pieces.set(colour + ' '.repeat(pieces.size), path);
    path = new Path2D();
    path.moveTo(px, py);
    inPiece = 0;
  }
  pieces.set(colour + ' '.repeat(pieces.size), path);
  return { stroke: pieces as unknown as Path2D, fill: null, clip: null, band: null, flags: 0 };
};
