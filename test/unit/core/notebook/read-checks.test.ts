// core/notebook read-checks + file-format: what a .measnb file may put in outputs and metadata, checked on read.
import assert from 'node:assert/strict';
import {
  itemText,
  MIME,
  parseNotebook,
  READ_BACK_MIMES,
  readNotebook,
  serializeNotebook,
} from '../../../../src/core/notebook';

const lines = (text: string) => JSON.stringify(text.split('\n'));
const item = (mime: string, text: string) => `{"mime":${JSON.stringify(mime)},"lines":${lines(text)}}`;
const notebook = (outputs: string[]) => `{"measnb":1,"cells":[{"source":"recent","outputs":[${outputs.join(',')}]}]}`;

describe('notebook file: outputs read back', () => {
  it('reads back only its own output types; a script output is dropped with a visible note', () => {
    const nb = parseNotebook(
      notebook([
        `{"items":[${item('text/html', '<script>alert(1)</script>')},${item('application/javascript', 'alert(2)')}]}`,
        `{"items":[{"mime":"${MIME.table}","base64":"AAEC"},${item(MIME.csv, 'a\n1')},${item('image/svg+xml', '<svg onload=x>')}]}`,
        `{"items":[${item(MIME.text, 'hello')}]}`,
      ]),
    );
    const outputs = nb.cells[0].outputs;
    const mimes = outputs.map((o) => o.items.map((i) => i.mime));
    assert.deepEqual(mimes, [[MIME.text], [MIME.table, MIME.csv], [MIME.text], [MIME.text]]);
    assert.equal(
      itemText(outputs[0].items[0]),
      '2 output item(s) of type text/html, application/javascript were dropped: this extension shows only its own output types (its table, text/csv, text/plain, errors).',
    );
    assert.match(itemText(outputs[2].items[0]), /^1 output item\(s\) of type image\/svg\+xml were dropped/);
    assert.equal(itemText(outputs[3].items[0]), 'hello');
    const text = serializeNotebook(nb);
    assert.ok(!/<script|alert|onload/.test(text), 'nothing of the dropped items is saved again');
    assert.deepEqual(parseNotebook(text), nb, 'stable: the note is read back as a text output');
  });

  it('reads back exactly the table, text/csv, text/plain, error and summary types', () => {
    assert.deepEqual([...READ_BACK_MIMES].sort(), [MIME.csv, MIME.text, MIME.error, MIME.summary, MIME.table].sort());
    for (const mime of [MIME.markdown, MIME.stdout, MIME.stderr, 'text/html', 'text/x-javascript', 'image/png']) {
      const [note] = parseNotebook(notebook([`{"items":[${item(mime, 'x')}]}`])).cells[0].outputs;
      assert.match(itemText(note.items[0]), /^1 output item\(s\) of type .* were dropped/, mime);
    }
  });

  it('names an odd type as invalid (the note holds no link or control text) and an item without a type', () => {
    const nb = parseNotebook(
      notebook([`{"items":[${item('http://evil.example/x\u202e', 'x')},{"lines":["x"]},${item('a/b', 'x')}]}`]),
    );
    assert.equal(
      itemText(nb.cells[0].outputs[0].items[0]),
      '3 output item(s) of type (an invalid type), a/b were dropped: this extension shows only its own output types (its table, text/csv, text/plain, errors).',
    );
  });

  it('keeps only the name and message of an error item (no stack); an unreadable error item is dropped', () => {
    const error = JSON.stringify({ name: 'Bad', message: 'why', stack: 'at file:///etc/passwd:1', extra: 1 });
    const nb = parseNotebook(
      notebook([`{"items":[${item(MIME.error, error)}]}`, `{"items":[${item(MIME.error, '{not json')}]}`]),
    );
    const [kept, dropped] = nb.cells[0].outputs;
    assert.deepEqual(JSON.parse(itemText(kept.items[0])), { name: 'Bad', message: 'why' });
    assert.match(
      itemText(dropped.items[0]),
      /^1 output item\(s\) of type application\/vnd\.code\.notebook\.error were dropped/,
    );
  });

  it('checks the known output metadata keys: a wrong type is dropped, other keys are kept', () => {
    const meta = {
      rowCount: 'many',
      columns: ['a', 1],
      originalBytes: -1,
      truncated: true,
      report: { connectionId: 'c', reportId: 7 },
      measnb: { title: 'ok', notes: ['a', { x: 1 }] },
      fullResultId: '../../x',
      other: { kept: true },
    };
    const [o] = parseNotebook(notebook([`{"items":[${item(MIME.text, 'x')}],"metadata":${JSON.stringify(meta)}}`]))
      .cells[0].outputs;
    assert.deepEqual(o.metadata, { truncated: true, other: { kept: true } });
    const good = {
      rowCount: 3,
      columns: ['a'],
      measnb: { title: 't', notes: ['n'], rest: { key: 'k', totalRows: 3, headRows: 1 } },
    };
    const [g] = parseNotebook(notebook([`{"items":[${item(MIME.text, 'x')}],"metadata":${JSON.stringify(good)}}`]))
      .cells[0].outputs;
    assert.deepEqual(g.metadata, good);
  });

  it('keeps a full-result path only when it is relative inside the notebook folder (what measnb run writes)', () => {
    const pathOf = (p: string, adopt?: (p: string) => string | undefined) =>
      parseNotebook(
        notebook([`{"items":[${item(MIME.text, 'x')}],"metadata":{"fullResultPath":${JSON.stringify(p)}}}`]),
        {
          adoptFullResultPath: adopt,
        },
      ).cells[0].outputs[0].metadata;
    assert.deepEqual(pathOf('run.results/cell-2.parquet'), { fullResultPath: 'run.results/cell-2.parquet' });
    for (const p of [
      '/home/me/.config/Code/User/workspaceStorage/x/results/1a2b3c4d-c1.parquet',
      '../x.parquet',
      'a/../../x',
      'C:\\x',
      '~/x',
    ]) {
      assert.deepEqual(pathOf(p), {}, p);
    }
    // The extension's reader adopts a path of its own result store as an id; any other is still dropped.
    const adopt = (p: string) => (p.startsWith('/store/') ? 'abcd1234-c1' : undefined);
    assert.deepEqual(pathOf('/store/abcd1234-c1.parquet', adopt), { fullResultId: 'abcd1234-c1' });
    assert.deepEqual(pathOf('/elsewhere/abcd1234-c1.parquet', adopt), {});
  });

  it('reads a file with a UTF-8 byte order mark as the same notebook (the one reader of the CLI and the extension)', () => {
    const text = serializeNotebook(parseNotebook(notebook([`{"items":[${item(MIME.text, 'x')}]}`])));
    const bytes = new TextEncoder().encode(text);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    assert.deepEqual(readNotebook(withBom), readNotebook(bytes));
    assert.deepEqual(parseNotebook(`\ufeff${text}`), parseNotebook(text));
    assert.deepEqual(readNotebook(new Uint8Array([0xef, 0xbb, 0xbf])), { metadata: {}, cells: [] });
  });

  it('checks the cell id and the notebook connection and org: a wrong type or an odd value is dropped', () => {
    const doc = (metadata: unknown, cellMeta: unknown) =>
      parseNotebook(JSON.stringify({ metadata, cells: [{ source: 'datasources', metadata: cellMeta }] }));
    const bad = doc(
      { connection: { url: 'http://evil' }, org: 'a\u001b]52;c;x\u0007', other: 1 },
      { id: `${'x'.repeat(100_000)}`, keep: true },
    );
    assert.deepEqual(bad.metadata, { other: 1 });
    assert.deepEqual(bad.cells[0].metadata, { keep: true });
    assert.deepEqual(doc({ org: 7 }, { id: '../c1' }).metadata, {});
    assert.deepEqual(doc({ org: 7 }, { id: '../c1' }).cells[0].metadata, {});
    const good = doc({ connection: 'Local emulator', org: 'demo' }, { id: 'c1a_b-2' });
    assert.deepEqual(good.metadata, { connection: 'Local emulator', org: 'demo' });
    assert.deepEqual(good.cells[0].metadata, { id: 'c1a_b-2' });
  });
});
