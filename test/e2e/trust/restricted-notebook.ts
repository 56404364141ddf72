// The .measnb text of the Restricted Mode e2e suite: a datasources cell with a saved table output (the
// renderer's wire format, as the extension saves it) and a sql cell. Bundled by esbuild in the suite.
import { codeCell, MIME, serializeNotebook } from '../../../src/core/notebook';
import { parseCsvWide } from '../../../src/core/table/csv-read.node';
import { encodeTable } from '../../../src/core/table/wire';

export const SAVED_CSV = 'datasourceId,name\nds-saved-1,Saved station one\nds-saved-2,Saved station two\n';

export async function restrictedNotebook(): Promise<string> {
  const table = encodeTable(await parseCsvWide(SAVED_CSV));
  const saved = {
    items: [
      { mime: MIME.table, data: table },
      { mime: MIME.csv, data: new TextEncoder().encode(SAVED_CSV) },
    ],
  };
  return serializeNotebook({
    metadata: {},
    cells: [codeCell('datasources as ds', [saved]), codeCell('sql\nSELECT count(*) AS n FROM ds')],
  });
}
