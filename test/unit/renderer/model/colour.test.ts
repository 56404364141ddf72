// A band's fill with an alpha from any colour the palette or the theme gives (hex, rgb, hsl): never an invalid
// string (an hsl() with "33" appended drew a white band in Profiles beyond the 6 theme colours).
import assert from 'node:assert/strict';
import { connectionStyleSlots, LINE_COLOURS, styleSlotsOf } from '../../../../src/core/aq/line-styles';
import type { Table } from '../../../../src/core/table/table';
import {
  groupColours,
  groupStyles,
  parseColour,
  tableLineStyles,
  withAlpha,
} from '../../../../src/renderer/model/colour';

describe('renderer colour: withAlpha', () => {
  it('hex forms: #rgb, #rgba, #rrggbb, #rrggbbaa', () => {
    assert.equal(withAlpha('#3794ff', 0.2), 'rgba(55, 148, 255, 0.2)');
    assert.equal(withAlpha('#f00', 0.5), 'rgba(255, 0, 0, 0.5)');
    assert.equal(withAlpha('#f00c', 0.5), 'rgba(255, 0, 0, 0.5)');
    assert.equal(withAlpha('#3794FF80', 0.2), 'rgba(55, 148, 255, 0.2)');
  });

  it('rgb() and rgba(), comma or space syntax', () => {
    assert.deepEqual(parseColour('rgb(1, 2, 3)'), [1, 2, 3]);
    assert.deepEqual(parseColour('rgba(10,20,30,0.4)'), [10, 20, 30]);
    assert.deepEqual(parseColour('rgb(10 20 30 / 50%)'), [10, 20, 30]);
  });

  it('hsl() as the palette makes it past 6 lines: hsl(137.5 65% 55%) -> rgb(66, 215, 98)', () => {
    // Hand-checked: C = (1 − |2·0.55 − 1|)·0.65 = 0.585; H' = 137.5/60 = 2.2917, X = C·(1 − |H' mod 2 − 1|) = 0.1706;
    // m = 0.55 − 0.2925 = 0.2575; (R, G, B) = (m + 0, m + C, m + X)·255 = (65.7, 214.9, 109.2) rounded (66, 215, 109).
    assert.deepEqual(parseColour('hsl(137.5 65% 55%)'), [66, 215, 109]);
    assert.equal(withAlpha('hsl(137.5 65% 55%)', 0.2), 'rgba(66, 215, 109, 0.2)');
    assert.deepEqual(parseColour('hsla(0, 100%, 50%, 0.3)'), [255, 0, 0]);
    assert.deepEqual(parseColour('hsl(240deg 100% 50%)'), [0, 0, 255]);
  });

  it('anything else: a neutral grey, never an invalid colour', () => {
    assert.equal(withAlpha('transparent', 0.2), 'rgba(128, 128, 128, 0.2)');
    assert.equal(withAlpha('#12345', 0.2), 'rgba(128, 128, 128, 0.2)');
    assert.equal(withAlpha('var(--x)', 0.2), 'rgba(128, 128, 128, 0.2)');
  });
});

describe('renderer colour: a datasource has one colour in every view of a result', () => {
  // Twenty datasources (more than the 15 colours), ten hours each: the chart's styles and Profiles' colours.
  const ids = Array.from({ length: 20 }, (_, i) => `D${String(i * 7919).padStart(7, 'X')}`);
  const n = ids.length * 10;
  const table: Table = {
    columns: [
      { name: 'datasourceId', kind: 'identifier', dict: ids, codes: Int32Array.from({ length: n }, (_, r) => r % 20) },
      {
        name: 'time',
        kind: 'time',
        values: Float64Array.from({ length: n }, (_, r) => Math.floor(r / 20) * 3_600_000),
      },
      { name: 'no2Conc1HourMean', kind: 'number', values: Float64Array.from({ length: n }, (_, r) => r % 17) },
    ],
    rowCount: n,
  };

  it('Profiles draws each datasource in its chart colour, whichever datasources it shows and in which order', () => {
    const chart = tableLineStyles(table, 0);
    const shown = [ids[13], ids[2], ids[19], ids[7]]; // Profiles' first lines by name, any subset
    assert.deepEqual(
      groupColours(table, shown),
      shown.map((id) => chart.get(id)!.colour),
    );
    // A line that is no datasource (a difference) takes the palette colour of its place.
    assert.equal(groupColours(table, [ids[0], 'A − B'])[1], LINE_COLOURS[1]);
  });

  it("with the connection's slots (ResultInfo.datasourceStyles), a datasource alone has its colour among all twenty", () => {
    const slots = (shown: readonly string[]) => styleSlotsOf(connectionStyleSlots(ids, shown));
    const full = tableLineStyles(table, 0, slots(ids));
    const aloneTable = (id: string): Table => ({
      columns: [
        { name: 'datasourceId', kind: 'identifier', dict: [id], codes: new Int32Array(3) },
        { name: 'time', kind: 'time', values: Float64Array.from([0, 1, 2]) },
      ],
      rowCount: 3,
    });
    let moved = 0;
    for (const id of ids) {
      const alone = aloneTable(id);
      assert.deepEqual(tableLineStyles(alone, 0, slots([id])).get(id), full.get(id), id);
      assert.deepEqual(groupStyles(alone, [id], slots([id]))[0], full.get(id), `${id} in Profiles`);
      if (tableLineStyles(alone, 0).get(id)!.colour !== full.get(id)!.colour) moved++;
    }
    assert.ok(moved > 0, 'without the slots some change colour alone');
  });
});
