// measnb export --evaluation: the sensor evaluation report (EPA's template) of a notebook's saved result, from
// a report cell of 5 days of hours over the emulator's collocated sensor, its reference site and a third
// datasource (src/emulator/world.ts WORLD_ROLES), as HTML and Markdown; usage errors exit 2 with one line.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeCell, serializeNotebook } from '../../src/core/notebook';
import { ManualClock, type RunningEmulator } from '../../src/emulator';
import { WORLD_ROLES } from '../../src/emulator/world';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const NOW = Date.parse('2026-11-20T12:00:30Z');

describe('measnb export --evaluation (built CLI)', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  let ran: string;
  let sensor: string;
  let reference: string;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ clock: new ManualClock(NOW), seed: 1, reportDelayMs: 0 }));
    const ids = emu.facts.datasources.map((d) => d.datasourceId);
    sensor = ids[WORLD_ROLES.collocatedSensor];
    reference = ids[WORLD_ROLES.collocatedReference];
    const other = ids.find((id) => id !== sensor && id !== reference)!;
    const src = join(dir, 'colloc.measnb');
    const cell = [
      'report datasource-measurements',
      `datasourceIds: ${other}, ${reference}, ${sensor}`,
      'outputFrequency: hour',
      'startTime: -5d',
      'endTime: today',
      'metricSelect: only pm2_5ConcMassNowcast + pm2_5ConcMass1HourMean',
      'fileFormat: csv-wide',
    ].join('\n');
    await writeFile(src, serializeNotebook({ metadata: {}, cells: [codeCell('datasources'), codeCell(cell)] }));
    ran = join(dir, 'colloc-run.measnb');
    const r = await runCli(['run', src, '--out', ran, ...conn.args], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => stopCliEmulator(emu, dir));

  it('--evaluation --sensor ID --out report.html: the nearest reference, both averagings, the targets', async () => {
    const out = join(dir, 'report.html');
    const r = await runCli(['export', ran, '--evaluation', '--sensor', sensor, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const html = await readFile(out, 'utf8');
    assert.ok(html.includes(`<th>Reference</th><td>${reference}`), 'its reference site, chosen by place');
    assert.ok(html.includes('<th>Distance</th><td>0.000 km</td>'));
    assert.match(html, /<th>Pollutant metric<\/th><td>pm2_5ConcMass1HourMean/);
    assert.match(html, /<th>Data<\/th><td>colloc-run\.measnb, code cell 2 \([\d,]+ rows\)<\/td>/);
    assert.equal((html.match(/<svg /g) ?? []).length, 4, 'scatter and time series of 1-hour and 24-hour averages');
    assert.match(
      html,
      /<td>Slope<\/td><td class="num">1\.\d\d<\/td><td class="num">1\.\d\d<\/td><td>1\.0 ± 0\.35<\/td><td class="met">met<\/td>/,
    );
    assert.match(html, /<td>n \(paired periods\)<\/td><td class="num">(\d{2,3})<\/td><td class="num">[3-5]<\/td>/);
  });

  it('--out report.md: the same report in Markdown; --metric picks another column', async () => {
    const out = join(dir, 'report.md');
    const r = await runCli([
      'export',
      ran,
      '--evaluation',
      '--sensor',
      sensor,
      '--reference',
      reference,
      '--metric',
      'pm2_5ConcMassNowcast',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const md = await readFile(out, 'utf8');
    assert.match(md, /^# Sensor performance report/);
    assert.match(md, /\| Pollutant metric \| pm2_5ConcMassNowcast/);
  });

  it('usage errors: unknown sensor, the sensor as its own reference, ipynb: exit 2, one line', async () => {
    for (const [args, re] of [
      [['--sensor', 'NOPE'], /No saved table with rows of NOPE/],
      [['--sensor', sensor, '--reference', sensor], /never paired with itself/],
      [['--sensor', sensor, '--to', 'ipynb'], /--evaluation writes html or md/],
    ] as const) {
      const r = await runCli(['export', ran, '--evaluation', ...args, '--out', join(dir, 'x.html')]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, re);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });
});
