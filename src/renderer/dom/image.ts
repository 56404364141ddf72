// A view's image in the browser: the SVG document a view draws (views/view.ts `image`), rasterised to PNG at
// 2× its size through an <img> of the SVG and a canvas, and copied to the clipboard as PNG.
import { bytesToBase64 } from '../../core/text/base64';

/** The device pixels per SVG pixel of a PNG: 2×, sharp on high-density screens and in documents. */
const PNG_SCALE = 2;

/** The width and height of an SVG document (its root's width/height attributes). */
function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const num = (name: string) => Number(new RegExp(`\\s${name}="(\\d+(?:\\.\\d+)?)"`).exec(root)?.[1] ?? Number.NaN);
  const [width, height] = [num('width'), num('height')];
  if (!(width > 0 && height > 0)) throw new Error('the drawing has no size');
  return { width, height };
}

/** The SVG as a data: URL (blob: URLs may be refused by a webview's CSP; data: images are allowed). */
function svgUrl(svg: string): string {
  return `data:image/svg+xml;base64,${bytesToBase64(new TextEncoder().encode(svg))}`;
}

/** The PNG of an SVG document, `scale` device pixels per SVG pixel, on white. */
export async function svgToPng(svg: string, scale = PNG_SCALE): Promise<Uint8Array> {
  const { width, height } = svgSize(svg);
  const img = new Image();
  img.src = svgUrl(svg);
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no canvas to draw the image on');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(img, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the image could not be made');
  return new Uint8Array(await blob.arrayBuffer());
}

/** Copies PNG bytes to the clipboard as an image; throws when the webview does not allow it. */
export async function copyPng(png: Uint8Array): Promise<void> {
  if (typeof ClipboardItem === 'undefined' || !navigator.clipboard?.write)
    throw new Error('this view has no image clipboard');
  const blob = new Blob([png as BlobPart], { type: 'image/png' });
  await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
}
