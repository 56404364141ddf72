import assert from 'node:assert/strict';
import { REPORT_KINDS, type ReportKind } from '../../../../src/core/api/types';
import { RECENT_QUERY_FIELDS, REPORT_FIELDS } from '../../../../src/core/api/validate';
import { keysFor, parseCell, type Verb } from '../../../../src/core/query';

const NOW = new Date('2026-11-21T12:00:00Z');
const parse = (text: string) => parseCell(text, { now: NOW });
const errors = (text: string) => parse(text).diagnostics.filter((d) => d.severity === 'error');
const warnings = (text: string) => parse(text).diagnostics.filter((d) => d.severity === 'warning');

describe('query language: parseCell', () => {
  it('parses the design example into a typed cell with symbolic times', () => {
    const r = parse(
      [
        '# PM2.5 NowCast for two sensors over the last 6 hours',
        'recent',
        'datasourceIds: DABC1234, DXYZ5678',
        'outputFrequency: hour',
        'metricSelect: only pm2_5ConcMassNowcast',
        'startTime: -6h',
        'format: csv-wide',
      ].join('\n'),
    );
    assert.deepEqual(r.diagnostics, []);
    assert.ok(r.cell);
    assert.equal(r.cell.verb, 'recent');
    assert.deepEqual(r.cell.fields.datasourceIds, ['DABC1234', 'DXYZ5678']);
    assert.equal(r.cell.fields.outputFrequency, 'hour');
    assert.deepEqual(r.cell.fields.startTime, { kind: 'relative', text: '-6h', offsetMs: -6 * 3_600_000 });
    assert.deepEqual(r.cell.ranges.startTime?.value, { start: { line: 5, column: 11 }, end: { line: 5, column: 14 } });
  });

  it('parses every verb form', () => {
    assert.equal(parse('datasources')?.cell?.verb, 'datasources');
    const f = parse('follow every 5m\nallDatasources: true').cell;
    assert.deepEqual(f?.every, { text: '5m', ms: 300_000 });
    assert.equal(parse('follow\nallDatasources: true').cell?.every, undefined);
    const rep = parse(
      'report node-measurements\nnodeIds: N1\noutputFrequency: day\nstartTime: 2026-11-01\nendTime: today',
    );
    assert.equal(rep.cell?.reportKind, 'node-measurements');
    assert.deepEqual(rep.cell?.fields.endTime, { kind: 'today' });
  });

  it('accepts comments at line start and after values, lists over several lines, CRLF', () => {
    const r = parse('# c\r\nrecent # verb\r\ndatasourceIds: A, # first\r\n  B,\r\n  C\r\nqcFlags: true # yes\r\n');
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.cell?.fields.datasourceIds, ['A', 'B', 'C']);
    assert.equal(r.cell?.fields.qcFlags, true);
  });

  it('reads every time form', () => {
    const t = (v: string) => parse(`recent\nallDatasources: true\nstartTime: ${v}`);
    assert.deepEqual(t('now').cell?.fields.startTime, { kind: 'now' });
    assert.deepEqual(t('today').cell?.fields.startTime, { kind: 'today' });
    assert.equal(t('-90m').cell?.fields.startTime?.kind, 'relative');
    assert.equal(t('-2d').cell?.fields.startTime?.kind, 'relative');
    const abs = t('2026-11-21T06:30:00+02:00').cell?.fields.startTime;
    assert.equal(abs?.kind === 'absolute' && abs.ms, Date.UTC(2026, 10, 21, 4, 30));
    assert.match(errors('recent\nallDatasources: true\nstartTime: 6h')[0].message, /start with '-'/);
    assert.match(errors('recent\nallDatasources: true\nstartTime: 2026-02-30')[0].message, /not a valid calendar date/);
    assert.match(errors('recent\nallDatasources: true\nstartTime: yesterday')[0].message, /ISO 8601/);
    assert.match(warnings('recent\nallDatasources: true\nstartTime: 2026-11-21T06:00:00')[0].message, /no UTC offset/);
  });

  it('diagnoses unknown keys with a did-you-mean and its range', () => {
    const [d] = errors('recent\nallDatasources: true\noutputFrequncy: hour');
    assert.equal(d.code, 'unknown-key');
    assert.equal(d.suggestion, 'outputFrequency');
    assert.match(d.message, /did you mean 'outputFrequency'/);
    assert.deepEqual(d.range, { start: { line: 2, column: 0 }, end: { line: 2, column: 14 } });
  });

  it('diagnoses keys that do not belong to the verb, saying why', () => {
    const e = errors('recent\nallDatasources: true\nendTime: now\nmetricLabelStyle: english\nfileFormat: csv');
    assert.deepEqual(
      e.map((d) => d.code),
      ['key-not-for-verb', 'key-not-for-verb', 'key-not-for-verb'],
    );
    assert.match(e[0].message, /use a report/);
    assert.match(e[1].message, /report files only/);
    assert.match(e[2].message, /format: json-long or csv-wide/);
    assert.match(errors('recent\nallDatasources: true\nreplyWithContinuationToken: true')[0].message, /use `follow`/);
    assert.match(
      errors('report node-measurements\ndatasourceIds: A').find((d) => d.code === 'key-not-for-verb')!.message,
      /report datasource-measurements/,
    );
    assert.match(errors('datasources\nformat: csv-wide')[0].message, /takes only org/);
  });

  it('diagnoses bad enum values with the allowed values', () => {
    const [d] = errors('recent\nallDatasources: true\noutputFrequency: hourly');
    assert.equal(d.code, 'bad-value');
    assert.deepEqual(d.allowedValues, ['minute', 'hour', 'day']);
    assert.equal(d.suggestion, 'hour');
    assert.deepEqual(d.range, { start: { line: 2, column: 17 }, end: { line: 2, column: 23 } });
    const [f] = errors('recent\nallDatasources: true\nformat: parquet');
    assert.deepEqual(f.allowedValues, ['json-long', 'csv-wide']);
    const [b] = errors('recent\nallDatasources: yes');
    assert.deepEqual(b.allowedValues, ['true', 'false']);
    assert.equal(b.suggestion, 'true');
  });

  it('diagnoses bad values of lists, integers and empty values', () => {
    assert.match(errors('recent\ndatasourceIds: A,,B')[0].message, /empty item/);
    assert.match(errors('recent\ndatasourceIds: A B')[0].message, /contains a space/);
    assert.match(errors('recent\ndatasourceIds:')[0].message, /at least one id/);
    assert.match(errors('recent\nallDatasources: true\nlocationRounding: -1')[0].message, /from 0 to 15, not '-1'/);
    assert.match(errors('recent\nallDatasources: true\nlocationRounding: five')[0].message, /whole number/);
    assert.match(errors('recent\nallDatasources: true\nformat:')[0].message, /needs a value \(json-long, csv-wide\)/);
    assert.match(warnings('recent\ndatasourceIds: A, A')[0].message, /listed twice/);
  });

  it('diagnoses bad combinations through the shared field rules', () => {
    const [none] = errors('recent\noutputFrequency: hour');
    assert.equal(none.code, 'missing-field');
    assert.match(none.message, /datasourceIds .* or allDatasources: true/);
    assert.deepEqual(none.range.start, { line: 0, column: 0 });
    const order = errors(
      'report datasource-measurements\nallDatasources: true\noutputFrequency: hour\nstartTime: -1d\nendTime: -2d',
    );
    assert.equal(order.length, 1);
    assert.match(order[0].message, /must be before endTime/);
    assert.equal(order[0].range.start.line, 4);
    const missing = errors('report reference-site-measurements\noutputFrequency: hour');
    assert.deepEqual(missing.map((d) => d.message).sort(), [
      'endTime is required for report reference-site-measurements',
      'refSiteIds is required for report reference-site-measurements',
      'startTime is required for report reference-site-measurements',
    ]);
    assert.match(warnings('recent\nallDatasources: true\ndatasourceIds: A')[0].message, /ignored/);
  });

  it('warns about recent queries older than the cache and unknown metrics', () => {
    assert.match(warnings('recent\nallDatasources: true\nstartTime: -2d')[0].message, /24 hours for minute output/);
    assert.deepEqual(warnings('recent\nallDatasources: true\noutputFrequency: hour\nstartTime: -2d'), []);
    assert.deepEqual(warnings('recent\nallDatasources: true\nmetricSelect: default - *aqi* + :pollutant'), []);
    // A pattern that matches nothing is only a hint: the service accepts it.
    const [p] = warnings('recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only *nosuch*');
    assert.equal(p.code, 'unknown-metric');
    assert.deepEqual(errors('recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only *nosuch*'), []);
  });

  it('metricSelect the emulator refuses is an error: the cell is not sent', () => {
    const cases: [string, RegExp][] = [
      ['only pm2_5ConcMasNowcast', /unknown metric label/],
      ['only pm2_5ConcMassNowcast', /only for hour output/],
      ['only :pollutants', /category/],
      ['only', /'only' must be followed by a metric/],
      ['ONLY  ', /'only' must be followed by a metric/],
      ['only - :pm25', /'only' must be followed/],
      ['default +', /a metric term is missing at the end/],
      ['only pm2_5* pm10*', /expected '\+' or '-'/],
    ];
    for (const [value, message] of cases) {
      const r = parseCell(`recent\nallDatasources: true\nmetricSelect: ${value}`, { now: NOW, service: 'emulator' });
      const e = r.diagnostics.filter((d) => d.severity === 'error');
      assert.equal(e.length, 1, value);
      assert.equal(e[0].code, 'unknown-metric', value);
      assert.match(e[0].message, message, value);
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity === 'warning'),
        [],
        value,
      );
      assert.equal(r.cell, undefined, value);
    }
  });

  it('against a real service (the default), what the catalogue does not know is a warning; the grammar still blocks', () => {
    // The catalogue is ours, not the service's: the service decides on labels it does not list.
    const catalogue: [string, RegExp][] = [
      // A typo of a label of another frequency: its suggestion, and where it exists.
      [
        'only pm2_5ConcMasNowcast',
        /^unknown metric label 'pm2_5ConcMasNowcast'; did you mean pm2_5ConcMassNowcast\? It exists only for hour output, not minute \(/,
      ],
      ['only no2Conc1HourMeanBrandNewAqi', /^unknown metric label 'no2Conc1HourMeanBrandNewAqi'/],
      ['only pm2_5ConcMassNowcast', /only for hour output/],
      ['only :pollutants', /^unknown metric category ':pollutants' \(/],
    ];
    for (const [value, message] of catalogue) {
      const text = `recent\nallDatasources: true\nmetricSelect: ${value}`;
      const r = parseCell(text, { now: NOW, service: 'real' });
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity === 'error'),
        [],
        value,
      );
      const [w] = r.diagnostics;
      assert.equal(w.severity, 'warning', value);
      assert.equal(w.code, 'unknown-metric', value);
      assert.match(w.message, message, value);
      assert.match(w.message, /\(not in the known catalogue; the service will decide\)$/, value);
      assert.equal(r.cell?.fields.metricSelect, value, 'the cell is sent as written');
      assert.deepEqual(parse(text).diagnostics, r.diagnostics, 'real is the default');
    }
    for (const value of ['only', 'only - :pm25', 'default +', 'only pm2_5* pm10*']) {
      const r = parseCell(`recent\nallDatasources: true\nmetricSelect: ${value}`, { now: NOW, service: 'real' });
      assert.equal(r.cell, undefined, value);
      assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 1, value);
    }
  });

  it('the real WaDwerAqi labels are in the catalogue: no problem for either service', () => {
    for (const service of ['emulator', 'real'] as const) {
      const text = 'recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only no2Conc1HourMeanWaDwerAqi';
      assert.deepEqual(parseCell(text, { now: NOW, service }).diagnostics, [], service);
      assert.deepEqual(
        parseCell(text.replace('only no2Conc1HourMeanWaDwerAqi', 'only *wadwer*'), { now: NOW, service }).diagnostics,
        [],
      );
    }
  });

  it('valid metricSelect forms of real clients stay free of errors and warnings', () => {
    for (const [freq, value] of [
      ['minute', 'only no2*'],
      ['hour', 'only :pollutant'],
      ['hour', 'default - *aqi*'],
      ['hour', 'only *nowcast*'],
      ['hour', 'only pm2_5* + pm10*'],
      ['hour', 'only + :pm25 + :internal'],
      ['hour', 'ONLY PM2_5CONCMASSNOWCAST'],
      ['minute', 'all - :gas'],
      ['day', 'only :node2 - :internal'],
      ['minute', 'none'],
      ['minute', 'default'],
      ['hour', 'only pm2_5ConcMassNowcastUsEpaAqi + no2Conc1HourMeanUsEpaAqi'],
    ]) {
      const text = `recent\nallDatasources: true\noutputFrequency: ${freq}\nmetricSelect: ${value}`;
      assert.deepEqual(parse(text).diagnostics, [], value);
    }
    // A report without outputFrequency checks labels against every frequency.
    const report = parse(
      'report node-measurements\nnodeIds: N1\nstartTime: 2026-11-01\nendTime: 2026-11-02\nmetricSelect: only pm2_5ConcMassNowcast',
    );
    assert.deepEqual(
      report.diagnostics.filter((d) => d.code === 'unknown-metric'),
      [],
    );
  });

  it('diagnoses verb lines', () => {
    assert.equal(errors('')[0].code, 'missing-verb');
    assert.equal(errors('# only a comment')[0].code, 'missing-verb');
    assert.equal(errors('datasourceIds: A')[0].code, 'missing-verb');
    const [v] = errors('recnt\nallDatasources: true');
    assert.equal(v.suggestion, 'recent');
    const [k] = errors('report node-measurement');
    assert.equal(k.suggestion, 'node-measurements');
    assert.deepEqual(errors('report')[0].allowedValues, [
      'datasource-measurements',
      'node-measurements',
      'reference-site-measurements',
    ]);
    assert.match(errors('follow 5m\nallDatasources: true')[0].message, /follow every 5m/);
    assert.match(errors('follow every\nallDatasources: true')[0].message, /needs a duration/);
    assert.match(errors('follow every 0s\nallDatasources: true')[0].message, /at least 1s/);
    assert.match(errors('recent now\nallDatasources: true')[0].message, /no arguments/);
    assert.equal(errors('recent\nallDatasources: true\nthis is not a field')[0].code, 'syntax');
    assert.equal(errors('recent\nallDatasources: true\nqcFlags: true\nqcFlags: false')[0].code, 'duplicate-key');
  });

  it('returns no cell when there is an error, so nothing invalid can run', () => {
    assert.equal(parse('recent\noutputFrequency: hour').cell, undefined);
    assert.ok(parse('recent\nallDatasources: true\nstartTime: -2d').cell, 'warnings keep the cell');
  });

  it('offers exactly the request fields of the shared field rules for each verb', () => {
    const writable = (verb: Verb, kind?: ReportKind) =>
      keysFor(verb, kind)
        .map((f) => f.name)
        .sort();
    const rules = (specs: readonly { name: string }[]) =>
      specs
        .map((s) => s.name)
        .filter((n) => n !== 'report' && n !== 'replyWithContinuationToken')
        .sort();
    assert.deepEqual(writable('recent'), rules(RECENT_QUERY_FIELDS));
    assert.deepEqual(writable('follow'), rules(RECENT_QUERY_FIELDS));
    for (const kind of REPORT_KINDS) assert.deepEqual(writable('report', kind), rules(REPORT_FIELDS[kind]));
    assert.deepEqual(writable('datasources'), ['org']);
  });
});
