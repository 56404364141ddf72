// A .measnb file whose saved table output is damaged (a dictionary code past its dictionary, as a file edited by
// hand or by a hostile tool may hold) opens in the browser workbench as a notebook: its good output draws its rows,
// the damaged one says why its table cannot be read (core/table/wire.ts decodeTable's TableFileError, shown by
// the renderer), not a blank output nor a broken table. Screenshot: e2e-saved-output-damaged.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, eventually, frameWith, openNotebook, screenshot, useWorkbench } from './workbench.mjs';

/** The wire bytes (core/table/wire.ts) of one identifier column with dictionary D1, D2 and these Int32 codes. */
function wireTable(codes) {
  const column = { name: 'datasourceId', kind: 'identifier', offset: 0, length: codes.length, dict: ['D1', 'D2'] };
  const header = Buffer.from(JSON.stringify({ rowCount: codes.length, columns: [column] }));
  const start = (8 + header.length + 7) & ~7; // the data 8-byte aligned after the magic, length and header
  const out = Buffer.alloc(start + 4 * codes.length);
  out.write('MNT1', 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  for (const [i, c] of codes.entries()) out.writeInt32LE(c, start + 4 * i);
  return out.toString('base64');
}

const savedCell = (codes) => ({
  kind: 'code',
  language: 'measq',
  source: ['datasources'],
  outputs: [{ items: [{ mime: 'application/vnd.measnb.table', base64: wireTable(codes) }] }],
});

describe('e2e: a notebook file with a damaged saved table output', () => {
  let page;
  useWorkbench((opened) => {
    page = opened;
  });

  it('opens; the damaged output says why its table cannot be read, the good one draws its rows', async function () {
    this.timeout(300_000);
    const nb = { measnb: 1, metadata: {}, cells: [savedCell([0, 1]), savedCell([0, 7])] };
    fs.writeFileSync(path.join(e2eEnv().workspace, 'damaged-output.measnb'), JSON.stringify(nb, null, 2));
    await openNotebook(page, 'damaged-output.measnb');
    const why = 'text=/This table output could not be read/';
    const frame = await frameWith(page, why, 'the damaged output saying why');
    const text = String(await frame.locator(why).first().textContent());
    assert.match(
      text,
      /not a valid measnb table: column "datasourceId" has the code 7 in row 2, past its dictionary of 2/,
    );
    // In the error style of outputs and panels (renderer/widget/mount.ts mountError), an alert, not plain text.
    const box = frame.locator('.mt-panel-error[role="alert"]').first();
    assert.match(String(await box.textContent()), /This table output could not be read/);
    const border = await box.evaluate((el) => getComputedStyle(el).borderLeftStyle);
    assert.equal(border, 'solid', 'the error style is applied (styles.css)');
    const good = await eventually(async () => {
      const t = await frame
        .locator('.measnb-table')
        .first()
        .textContent()
        .catch(() => '');
      return t?.includes('D2') && t;
    }, 'the good output drawn');
    assert.match(good, /D1/);
    console.log(`      ${await screenshot(page, 'e2e-saved-output-damaged')}`);
  });
});
