import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NotebookFormatError } from '../../../../src/core/api/errors';
import {
  codeCell,
  errorOutput,
  itemText,
  MAX_NESTING_DEPTH,
  MIME,
  markdownCell,
  type Notebook,
  parseNotebook,
  serializeNotebook,
  textItem,
} from '../../../../src/core/notebook';

function sample(): Notebook {
  return {
    metadata: { connection: 'Local emulator', org: 'demo' },
    cells: [
      markdownCell('# Title\n\nSome text'),
      {
        ...codeCell('recent\ndatasourceIds: A, B\n'),
        outputs: [
          {
            items: [
              textItem(MIME.csv, 'datasourceId,time,"a,b"\nA,2026-11-21T00:00:00.000Z,1\n'),
              { mime: MIME.table, data: new Uint8Array([0, 1, 2, 255]) },
            ],
            metadata: { rowCount: 1, columns: ['datasourceId', 'time', 'a,b'] },
          },
        ],
        execution: { order: 1, success: true, startTime: 1, endTime: 2 },
      },
      { ...codeCell('recent\nformat: bad'), outputs: [errorOutput('QueryError', 'bad value')] },
    ],
  };
}

describe('notebook file format', () => {
  it('round-trips a notebook exactly (text, binary, metadata, execution)', () => {
    const nb = sample();
    const text = serializeNotebook(nb);
    const back = parseNotebook(text);
    assert.deepEqual(back, nb);
    assert.equal(serializeNotebook(back), text, 'stable: serializing again gives the same bytes');
  });

  it('is readable and diff-friendly: source and text outputs are arrays of lines, stable key order', () => {
    const text = serializeNotebook(sample());
    const doc = JSON.parse(text);
    assert.deepEqual(Object.keys(doc), ['measnb', 'metadata', 'cells']);
    assert.deepEqual(Object.keys(doc.metadata), ['connection', 'org']);
    assert.deepEqual(doc.cells[1].source, ['recent', 'datasourceIds: A, B', '']);
    assert.deepEqual(Object.keys(doc.cells[1]), ['kind', 'language', 'source', 'execution', 'outputs']);
    assert.equal(doc.cells[1].outputs[0].items[0].lines[1], 'A,2026-11-21T00:00:00.000Z,1');
    assert.equal(doc.cells[1].outputs[0].items[1].base64, 'AAEC/w==');
    assert.ok(text.includes('\n      "source": [\n        "recent",'), 'one line of source per line of file');
    assert.ok(text.endsWith('}\n'));
  });

  it('never writes a key or a token, wherever it is put in metadata', () => {
    const nb = sample();
    nb.metadata.apiKey = 'SECRET-1';
    nb.metadata.continuationToken = 'TOKEN-1';
    nb.cells[1].metadata = { follow: { token: 'TOKEN-2', lastTime: 5 }, 'x-api-key': 'SECRET-2' };
    const text = serializeNotebook(nb);
    for (const s of ['SECRET-1', 'SECRET-2', 'TOKEN-1', 'TOKEN-2']) assert.ok(!text.includes(s), s);
    assert.deepEqual(parseNotebook(text).cells[1].metadata, { follow: { lastTime: 5 } });
  });

  it('keeps only a summary of an output over the limit, with row count, columns and where the full result is', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `D${i % 7},2026-11-21T00:00:00.000Z,${i}`).join('\n');
    const csv = `datasourceId,time,"pm2_5ConcMassNowcast"\n${rows}\n`;
    const nb: Notebook = {
      metadata: {},
      cells: [
        { ...codeCell('recent'), outputs: [{ items: [textItem(MIME.csv, csv)] }] },
        {
          ...codeCell('recent'),
          outputs: [{ items: [textItem(MIME.csv, csv)], metadata: { fullResultPath: 'results/cell-2.csv' } }],
        },
        { ...codeCell('recent'), outputs: [{ items: [textItem(MIME.csv, 'a\n1\n')] }] },
      ],
    };
    const text = serializeNotebook(nb, { outputLimitBytes: 10_000 });
    assert.ok(text.length < 10_000, 'the big outputs are gone');
    const back = parseNotebook(text);
    const [first] = back.cells[0].outputs;
    assert.equal(first.metadata?.truncated, true);
    assert.equal(first.metadata?.rowCount, 5000);
    assert.deepEqual(first.metadata?.columns, ['datasourceId', 'time', 'pm2_5ConcMassNowcast']);
    assert.match(itemText(first.items[0]), /^5000 rows × 3 columns .* Run the cell again/);
    const summary = JSON.parse(itemText(first.items.find((i) => i.mime === MIME.summary)!));
    assert.equal(summary.rowCount, 5000);
    assert.match(itemText(back.cells[1].outputs[0].items[0]), /The full result is in results\/cell-2\.csv/);
    assert.equal(itemText(back.cells[2].outputs[0].items[0]), 'a\n1\n', 'small outputs are kept whole');
  });

  it('reads an empty file as an empty notebook and hand-written sources as strings', () => {
    assert.deepEqual(parseNotebook(''), { metadata: {}, cells: [] });
    const nb = parseNotebook('{"cells":[{"source":"datasources"}]}');
    assert.deepEqual(nb.cells[0], { kind: 'code', language: 'measq', source: 'datasources', outputs: [] });
  });

  it('keeps keys it does not know, so nothing is lost on save', () => {
    const text = '{"measnb":1,"metadata":{"x":1},"cells":[{"kind":"code","source":[],"future":{"a":1}}],"later":true}';
    const again = parseNotebook(serializeNotebook(parseNotebook(text)));
    assert.deepEqual(again.extra, { later: true });
    assert.deepEqual(again.cells[0].extra, { future: { a: 1 } });
    assert.deepEqual(again.metadata, { x: 1 });
  });

  it('gives clear errors naming where the file is wrong', () => {
    const bad = (text: string, re: RegExp) =>
      assert.throws(
        () => parseNotebook(text),
        (e: unknown) => e instanceof NotebookFormatError && re.test(e.message),
      );
    bad('{', /not valid JSON/);
    bad('[]', /JSON object with "cells"/);
    bad('{"cells":{}}', /^cells: expected an array/);
    bad('{"cells":[{"kind":"python"}]}', /^cells\[0\]\.kind: expected "code" or "markup"/);
    bad('{"cells":[{"source":[1]}]}', /^cells\[0\]\.source: expected an array of lines/);
    bad(
      '{"cells":[{"outputs":[{"items":[{"mime":"text/plain"}]}]}]}',
      /cells\[0\]\.outputs\[0\]\.items\[0\]: .*"lines" or "base64"/,
    );
    bad('{"measnb":2,"cells":[]}', /newer/);
  });

  it('refuses a file nested 5,000 levels deep with an error naming the limit (no stack overflow)', () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const text = `{"measnb":1,"metadata":{"connection":"Local emulator","x":${deep(5000)}},"cells":[{"source":"datasources"}]}`;
    assert.throws(
      () => parseNotebook(text),
      (e: unknown) =>
        e instanceof NotebookFormatError &&
        e.message ===
          `metadata.x.a: objects and arrays are nested more than ${MAX_NESTING_DEPTH} levels deep (the limit is ${MAX_NESTING_DEPTH})`,
    );
    // Anywhere in the file, not only metadata: a cell's extra key, an output's metadata, an array of arrays.
    assert.throws(
      () => parseNotebook(`{"cells":[{"source":"x","future":${deep(5000)}}]}`),
      /cells\[0\]\.future: .*nested more than 64/,
    );
    assert.throws(
      () => parseNotebook(`{"cells":[],"z":${'['.repeat(5000)}${']'.repeat(5000)}}`),
      / z\[0\]\[0\]: .*64 levels/,
    );
    // Up to the limit is fine (the document itself is level 1), and so is saving it again.
    const ok = parseNotebook(`{"metadata":{"x":${deep(MAX_NESTING_DEPTH - 3)}},"cells":[]}`);
    assert.equal(parseNotebook(serializeNotebook(ok)).metadata.x !== undefined, true);
    assert.throws(() => parseNotebook(`{"metadata":{"x":${deep(MAX_NESTING_DEPTH - 1)}},"cells":[]}`), /64 levels/);
  });

  it('refuses to save metadata nested too deep (set at run time) with the same clear error', () => {
    let x: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) x = { a: x };
    assert.throws(
      () => serializeNotebook({ metadata: { x }, cells: [] }),
      (e: unknown) => e instanceof NotebookFormatError && /metadata.x.a: .*nested more than 64 levels/.test(e.message),
    );
  });

  it('round-trips arbitrary sources and outputs (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            source: fc.string(),
            text: fc.string(),
            bytes: fc.uint8Array({ maxLength: 64 }),
            markup: fc.boolean(),
          }),
          { maxLength: 6 },
        ),
        (cells) => {
          const nb: Notebook = {
            metadata: { org: 'o' },
            cells: cells.map((c) =>
              c.markup
                ? markdownCell(c.source)
                : {
                    ...codeCell(c.source),
                    outputs: [{ items: [textItem(MIME.text, c.text), { mime: MIME.table, data: c.bytes }] }],
                  },
            ),
          };
          assert.deepEqual(parseNotebook(serializeNotebook(nb)), nb);
        },
      ),
    );
  });
});
