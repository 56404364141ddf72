// How far apart two colours look: CIELAB (D65, from sRGB) and the CIEDE2000 colour difference, and WCAG's
// contrast ratio. The line palette's rules (core/aq/line-styles) are stated in these terms: each pair of line
// colours at least a ΔE00 apart, every line colour far from the AQI band and QC-invalid hues, every line
// readable (3:1) on the light and the dark theme's background.
// Sources: CIE 15:2004 (sRGB → XYZ → L*a*b*, D65 white); Sharma, Wu and Dalal 2005, "The CIEDE2000
// color-difference formula: implementation notes, supplementary test data, and mathematical observations",
// Color Res. Appl. 30(1) 21–30, Eq. (1)–(22); WCAG 2.1, relative luminance and contrast ratio.

type Lab = readonly [number, number, number];

/** [r, g, b] 0-1 of "#rrggbb"; throws on any other form (the palette is written as #rrggbb). */
function hexRgb(hex: string): [number, number, number] {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** sRGB (linear) to XYZ, IEC 61966-2-1 to 7 decimals; the D65 white is its row sums (white → a* = b* = 0). */
const SRGB_TO_XYZ = [
  [0.4124564, 0.3575761, 0.1804375],
  [0.2126729, 0.7151522, 0.072175],
  [0.0193339, 0.119192, 0.9503041],
] as const;
const WHITE = SRGB_TO_XYZ.map(([x, y, z]) => x + y + z);

/** Linear-light XYZ of an sRGB colour (IEC 61966-2-1), Y 0-1. */
function xyz(hex: string): [number, number, number] {
  const [r, g, b] = hexRgb(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return SRGB_TO_XYZ.map(([x, y, z]) => x * r + y * g + z * b) as [number, number, number];
}

/** WCAG relative luminance (0 black – 1 white). */
function relativeLuminance(hex: string): number {
  return xyz(hex)[1];
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** CIELAB of an sRGB colour, D65 white. */
export function hexToLab(hex: string): Lab {
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = xyz(hex).map((v, i) => f(v / WHITE[i]));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const rad = (deg: number) => (deg * Math.PI) / 180;
/** Hue angle in degrees 0-360 of (a, b); 0 for a neutral colour (Sharma et al., Eq. 4). */
const hueDeg = (b: number, a: number) => (a === 0 && b === 0 ? 0 : ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360);

/** CIEDE2000 ΔE00 of two CIELAB colours (kL = kC = kH = 1), as in Sharma, Wu and Dalal 2005. */
export function ciede2000(lab1: Lab, lab2: Lab): number {
  const [L1, a1, b1] = lab1;
  const [L2, a2, b2] = lab2;
  const cBar7 = ((Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(cBar7 / (cBar7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + G) * a1, (1 + G) * a2];
  const [C1, C2] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const [h1, h2] = [hueDeg(b1, a1p), hueDeg(b2, a2p)];
  const neutral = C1 * C2 === 0;
  let dh = neutral ? 0 : h2 - h1;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dH = 2 * Math.sqrt(C1 * C2) * Math.sin(rad(dh / 2));
  const Lbar = (L1 + L2) / 2;
  const Cbar = (C1 + C2) / 2;
  let hBar = h1 + h2;
  if (!neutral) hBar = Math.abs(h1 - h2) <= 180 ? hBar / 2 : hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2;
  const T =
    1 -
    0.17 * Math.cos(rad(hBar - 30)) +
    0.24 * Math.cos(rad(2 * hBar)) +
    0.32 * Math.cos(rad(3 * hBar + 6)) -
    0.2 * Math.cos(rad(4 * hBar - 63));
  const dTheta = 30 * Math.exp(-(((hBar - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cbar ** 7 / (Cbar ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lbar - 50) ** 2) / Math.sqrt(20 + (Lbar - 50) ** 2);
  const SC = 1 + 0.045 * Cbar;
  const SH = 1 + 0.015 * Cbar * T;
  const RT = -Math.sin(rad(2 * dTheta)) * RC;
  const [l, c, hh] = [(L2 - L1) / SL, (C2 - C1) / SC, dH / SH];
  return Math.sqrt(l * l + c * c + hh * hh + RT * c * hh);
}

/** CIEDE2000 of two #rrggbb colours. */
export function colourDifference(a: string, b: string): number {
  return ciede2000(hexToLab(a), hexToLab(b));
}
