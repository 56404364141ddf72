// The dictionary of a dictionary column (table.ts DictColumn): each distinct value gets the next code the
// first time it is seen, and keeps it. The one "get or add a code" of the project's table builders.

export class Interner<V = string> {
  /** The dictionary: values in the order their codes were given. */
  readonly values: V[] = [];
  private readonly codes = new Map<string, number>();

  /** keyOf: what makes two values the same (default: the value itself, for strings). */
  constructor(private readonly keyOf?: (value: V) => string) {}

  /** The code of a value, added to the dictionary the first time. */
  code(value: V): number {
    const key = this.keyOf ? this.keyOf(value) : (value as unknown as string);
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(key, code);
    }
    return code;
  }

  /** The code of a value, or -1 (an empty cell) for undefined, null and ''. */
  codeOrEmpty(value: V | undefined | null): number {
    return value === undefined || value === null || value === '' ? -1 : this.code(value);
  }
}

/** The key of a text or flag-list dictionary value: the text itself, a flag list by its JSON text. */
export const dictValueKey = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
