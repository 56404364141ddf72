// Which rows to draw for a scroll position. The scroll height is capped (browsers limit element
// heights to ~17-33 million px), so past the cap the scroll position maps proportionally to rows.

/** Stays below Firefox's ~17.9M px and Chromium's ~33.5M px element height limits. */
export const MAX_SCROLL_HEIGHT = 8_000_000;

interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  rowCount: number;
  overscan?: number;
  maxScrollHeight?: number;
}

interface RowWindow {
  /** First row position (in the view) to draw. */
  first: number;
  /** Number of rows to draw. */
  count: number;
  /** Where the first drawn row goes, in px from the top of the scrolled content. */
  offsetTop: number;
  /** Height of the scrolled content. */
  totalHeight: number;
}

function totalScrollHeight(rowCount: number, rowHeight: number, max = MAX_SCROLL_HEIGHT): number {
  return Math.min(rowCount * rowHeight, max);
}

/** Rows that fit in the viewport plus overscan; this bounds the number of row elements. */
export function poolSize(viewportHeight: number, rowHeight: number, overscan = 8): number {
  return Math.ceil(viewportHeight / rowHeight) + 1 + 2 * overscan;
}

export function computeWindow(input: WindowInput): RowWindow {
  const { viewportHeight, rowHeight, rowCount } = input;
  const overscan = input.overscan ?? 8;
  const max = input.maxScrollHeight ?? MAX_SCROLL_HEIGHT;
  const totalHeight = totalScrollHeight(rowCount, rowHeight, max);
  const visible = Math.ceil(viewportHeight / rowHeight) + 1;
  const maxScrollTop = Math.max(0, totalHeight - viewportHeight);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), maxScrollTop);
  let topRow: number;
  let topOffset: number;
  if (rowCount * rowHeight <= max) {
    topRow = Math.floor(scrollTop / rowHeight);
    topOffset = topRow * rowHeight;
  } else {
    // Scaled: the scroll fraction picks the first visible row; at the very bottom the last row is fully shown.
    const lastTopRow = Math.max(0, rowCount - Math.floor(viewportHeight / rowHeight));
    const fraction = maxScrollTop > 0 ? scrollTop / maxScrollTop : 0;
    topRow = Math.min(lastTopRow, Math.floor(fraction * lastTopRow));
    topOffset = scrollTop;
  }
  const first = Math.max(0, topRow - overscan);
  const last = Math.min(rowCount, topRow + visible + overscan);
  return {
    first,
    count: Math.max(0, last - first),
    offsetTop: topOffset - (topRow - first) * rowHeight,
    totalHeight,
  };
}

/**
 * The height of a viewport that grows with its rows up to `max`: its header and every row when they fit (so it
 * never scrolls vertically and a wheel over it scrolls the notebook instead), else `max`. `chrome` is what the
 * box takes from that height besides its borders: a horizontal scrollbar when the columns are wider than it.
 */
export function fittedViewportHeight(header: number, rows: number, rowHeight: number, chrome: number, max: number) {
  return Math.min(max, header + Math.max(1, rows) * rowHeight + Math.max(0, chrome));
}
