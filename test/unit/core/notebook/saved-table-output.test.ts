// A .measnb file whose saved table output carries bad wire bytes (a cloned repository's notebook is hostile input):
// the file opens, and the output says why its table cannot be read (TableFileError's message), in every export.
import assert from 'node:assert/strict';
import { codeCell, MIME, parseNotebook, serializeNotebook } from '../../../../src/core/notebook';
import { exportNotebook } from '../../../../src/core/notebook/export';
import { tableOutput } from '../../../../src/core/run/outputs';
import type { Table } from '../../../../src/core/table/table';
import { encodeTable } from '../../../../src/core/table/wire';

function table(codes: number[]): Table {
  return {
    rowCount: codes.length,
    columns: [
      { name: 'datasourceId', kind: 'identifier', dict: ['D1', 'D2'], codes: Int32Array.from(codes) },
      { name: 'pm2_5ConcMass', kind: 'number', values: Float64Array.from(codes, (_, i) => i + 0.5) },
    ],
  };
}

/** The text of a .measnb file whose one output's table item holds `bytes` (its csv copy is of a good table). */
function notebookFile(bytes: Uint8Array): string {
  const output = tableOutput(table([0, 1, 1]));
  output.items = output.items.map((i) => (i.mime === MIME.table ? { mime: i.mime, data: bytes } : i));
  return serializeNotebook({ metadata: {}, cells: [codeCell('datasources', [output])] });
}

describe('a .measnb file with a damaged saved table output', () => {
  it('opens, and each export shows why the table cannot be read instead of its rows', () => {
    // A code past the dictionary of two (as a file edited by hand or by a hostile tool may hold).
    const file = notebookFile(encodeTable(table([0, 7, 1])));
    const nb = parseNotebook(file);
    assert.equal(nb.cells[0].outputs?.length, 1, 'the output is read back (its bytes are checked where decoded)');
    for (const format of ['html', 'md', 'ipynb'] as const) {
      const text = exportNotebook(nb, format);
      // The column's name is quoted in the message: escaped as each format escapes it.
      assert.match(text, /a table output that could not be read: not a valid measnb table: column /, format);
      assert.match(text, /datasourceId.{0,12} has the code 7 in row 2, past its dictionary of 2/, format);
      assert.ok(!text.includes('undefined'), format);
    }
  });

  it('a good saved table output exports its rows (the same file, codes in the dictionary)', () => {
    const html = exportNotebook(parseNotebook(notebookFile(encodeTable(table([0, 1, 1])))), 'html');
    assert.ok(html.includes('D2') && !html.includes('could not be read'));
  });
});
