// A bounded cache of formatted row text. Rows are a pure function of (datasource, period, query shape),
// and recent queries repeat the same recent periods, so repeated queries mostly copy cached text.

/** Query shape -> datasource gid -> period index -> row text. */
type ShapeRows = Array<Map<number, string> | undefined>;

const MAX_SHAPES = 64;

export class RowTextCache {
  private readonly shapes = new Map<string, ShapeRows>();
  // Insertion order for first-in first-out eviction.
  private queueRows: ShapeRows[] = [];
  private queueGid: number[] = [];
  private queuePeriod: number[] = [];
  private queueLength: number[] = [];
  private head = 0;
  private chars = 0;

  constructor(private readonly maxChars = 16 * 1024 * 1024) {}

  rowsOf(shape: string): ShapeRows {
    let rows = this.shapes.get(shape);
    if (!rows) {
      rows = [];
      this.shapes.set(shape, rows);
      // Few shapes are ever in use at once; forget the oldest (its rows leave with the FIFO queue).
      if (this.shapes.size > MAX_SHAPES) this.shapes.delete(this.shapes.keys().next().value as string);
    }
    return rows;
  }

  get(rows: ShapeRows, gid: number, period: number): string | undefined {
    return rows[gid]?.get(period);
  }

  set(rows: ShapeRows, gid: number, period: number, text: string): void {
    if (text.length > this.maxChars / 8) return;
    let perDs = rows[gid];
    if (!perDs) {
      perDs = new Map();
      rows[gid] = perDs;
    }
    // Row text is built by concatenation (a rope of many small pieces); flatten it before keeping it.
    if (text.length > 0) text.charCodeAt(0);
    perDs.set(period, text);
    this.queueRows.push(rows);
    this.queueGid.push(gid);
    this.queuePeriod.push(period);
    this.queueLength.push(text.length);
    this.chars += text.length;
    while (this.chars > this.maxChars && this.head < this.queueRows.length) this.evictOne();
    if (this.head > 4096 && this.head * 2 > this.queueRows.length) this.compact();
  }

  private evictOne(): void {
    const i = this.head++;
    this.queueRows[i][this.queueGid[i]]?.delete(this.queuePeriod[i]);
    this.chars -= this.queueLength[i];
  }

  private compact(): void {
    this.queueRows = this.queueRows.slice(this.head);
    this.queueGid = this.queueGid.slice(this.head);
    this.queuePeriod = this.queuePeriod.slice(this.head);
    this.queueLength = this.queueLength.slice(this.head);
    this.head = 0;
  }
}
