import assert from 'node:assert/strict';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import {
  completeAt,
  hoverAt,
  idAt,
  parseCell,
  quickFixes,
  resolveCell,
  unknownIdDiagnostics,
} from '../../../../src/core/query';
import { isParamsCell, notebookParams, notebookParamValues } from '../../../../src/core/query/notebook-params';
import { inferParamType, paramsCaption, paramValues, readParamValue } from '../../../../src/core/query/params';

const NOW = new Date('2026-11-21T12:00:00Z');

const PARAMS_CELL = [
  'params',
  '# the site and period of the monthly report',
  'site: DABC1234',
  'sites: DABC1234, DXYZ5678',
  'start: -7d',
  'end: now',
  'threshold: 35.4',
  'freq: hour',
  'qc: true',
  'label: text = 2026',
].join('\n');

function defs() {
  const p = parseCell(PARAMS_CELL, { now: NOW });
  assert.ok(p.cell?.params, JSON.stringify(p.diagnostics));
  return p.cell.params;
}

function withParams(text: string, given: Record<string, string> = {}) {
  const { values, errors } = paramValues(defs(), given);
  assert.deepEqual(errors, []);
  return parseCell(text, { now: NOW, params: values });
}

const errorsOf = (r: ReturnType<typeof parseCell>) => r.diagnostics.filter((d) => d.severity === 'error');

describe('parameters: the params cell', () => {
  it('declares typed parameters, inferred from the default or written as name: type = default', () => {
    const byName = Object.fromEntries(defs().map((d) => [d.name, d]));
    assert.deepEqual(Object.fromEntries(Object.entries(byName).map(([n, d]) => [n, d.type])), {
      site: 'text',
      sites: 'ids',
      start: 'time',
      end: 'time',
      threshold: 'number',
      freq: 'text',
      qc: 'boolean',
      label: 'text',
    });
    assert.deepEqual(byName.sites.default.value, ['DABC1234', 'DXYZ5678']);
    assert.equal(byName.threshold.default.value, 35.4);
    assert.equal(byName.label.default.value, '2026');
    assert.equal(byName.label.explicit, true);
    assert.deepEqual(byName.start.default.value, { kind: 'relative', text: '-7d', offsetMs: -7 * 86_400_000 });
  });

  it('infers types in a fixed order: boolean, number, time, ids, text', () => {
    assert.equal(inferParamType('false'), 'boolean');
    assert.equal(inferParamType('-3'), 'number');
    assert.equal(inferParamType('1e3'), 'number');
    assert.equal(inferParamType('2026-10-01'), 'time');
    assert.equal(inferParamType('today'), 'time');
    assert.equal(inferParamType('a,b'), 'ids');
    assert.equal(inferParamType('DABC1234'), 'text');
  });

  it('refuses bad names, a name declared twice, a bad default and a line that is no declaration', () => {
    const r = parseCell(
      ['params', '1site: A', 'site: A', 'site: B', 'when: time = yesterday-ish', 'n: number = x', 'just text'].join(
        '\n',
      ),
      { now: NOW },
    );
    assert.equal(r.cell, undefined);
    const lines = errorsOf(r).map((d) => [d.range.start.line, d.code]);
    assert.deepEqual(lines, [
      [1, 'bad-parameter'],
      [3, 'bad-parameter'],
      [4, 'bad-parameter'],
      [5, 'bad-parameter'],
      [6, 'bad-parameter'],
    ]);
    assert.match(errorsOf(r)[0].message, /not a parameter name/);
    assert.match(errorsOf(r)[1].message, /already declared/);
    assert.match(errorsOf(r)[2].message, /not a time/);
  });

  it('a params cell takes no result name and no arguments', () => {
    assert.equal(parseCell('params as p\nx: 1', { now: NOW }).cell, undefined);
    assert.equal(parseCell('params now\nx: 1', { now: NOW }).cell, undefined);
  });

  it('a notebook has one params cell: a second one is an error on its verb', () => {
    const texts = ['params\na: 1', 'recent\ndatasourceIds: {{b}}', '  params\nb: 2'];
    const nb = notebookParams(texts);
    assert.equal(nb.index, 0);
    assert.deepEqual(
      nb.defs.map((d) => d.name),
      ['a'],
    );
    assert.deepEqual(nb.diagnostics[0], []);
    assert.equal(nb.diagnostics[2][0].code, 'duplicate-params');
    assert.deepEqual(nb.diagnostics[2][0].range.start, { line: 0, column: 2 });
    assert.ok(isParamsCell('# c\nparams'));
    assert.ok(!isParamsCell('recent'));
  });
});

describe('parameters: values given by name', () => {
  it('checks each given value by its parameter type, and refuses unknown names', () => {
    const { values, errors } = paramValues(defs(), {
      site: 'DQQQ0000',
      start: '2026-10-01',
      threshold: 'high',
      nope: '1',
    });
    assert.equal(values.get('site')?.value, 'DQQQ0000');
    assert.equal(values.get('start')?.text, '2026-10-01');
    assert.equal(values.get('threshold')?.value, 35.4, 'the bad value leaves the default');
    assert.deepEqual(errors, [
      "Bad value for number parameter 'threshold': 'high' is not a number",
      "Unknown parameter 'nope' (declared: site, sites, start, end, threshold, freq, qc, label)",
    ]);
  });

  it('refuses control characters (a newline) and over-long values in any type', () => {
    assert.match((readParamValue('text', 'a\nb') as { error: string }).error, /one line/);
    assert.match((readParamValue('text', 'x'.repeat(1001)) as { error: string }).error, /at most 1000/);
    assert.match((readParamValue('ids', 'a,,b') as { error: string }).error, /empty id/);
    assert.match((readParamValue('ids', 'a,{{b}}') as { error: string }).error, /not an id/);
  });

  it('a notebook without a params cell knows no parameter', () => {
    const r = notebookParamValues(['recent'], { site: 'X' });
    assert.deepEqual(r.errors, ["Unknown parameter 'site' (the notebook has no params cell)"]);
  });

  it('captions the values a cell used, a relative time with the instant it stood for', () => {
    const { values } = paramValues(defs(), { site: 'DQQQ0000' });
    assert.equal(
      paramsCaption(['site', 'start', 'threshold'], values, NOW),
      'site=DQQQ0000, start=-7d (2026-11-14T12:00:00.000Z), threshold=35.4',
    );
  });
});

describe('parameters: {{name}} in query cells', () => {
  it('substitutes parsed values: text as one id, ids as several, a time, an enum, a boolean', () => {
    const r = withParams(
      [
        'report datasource-measurements',
        'datasourceIds: {{ site }}, {{sites}}, DEXTRA01',
        'outputFrequency: {{freq}}',
        'startTime: {{start}}',
        'endTime: {{end}}',
        'qcAssessment: {{qc}}',
      ].join('\n'),
    );
    assert.deepEqual(errorsOf(r), []);
    assert.ok(r.cell);
    assert.deepEqual(r.cell.fields.datasourceIds, ['DABC1234', 'DXYZ5678', 'DEXTRA01']);
    assert.equal(r.cell.fields.outputFrequency, 'hour');
    assert.equal(r.cell.fields.qcAssessment, true);
    assert.deepEqual(r.cell.usedParams, ['site', 'sites', 'freq', 'start', 'end', 'qc']);
    const resolved = resolveCell(r.cell, { now: NOW, org: 'o' }).resolved;
    assert.ok(resolved?.verb === 'report');
    assert.equal(resolved.request.startTime, '2026-11-14T12:00:00.000Z');
    assert.equal(resolved.request.endTime, '2026-11-21T12:00:00.000Z');
  });

  it('uses the values given for the run, not the defaults', () => {
    const r = withParams('recent\ndatasourceIds: {{site}}\noutputFrequency: {{freq}}', {
      site: 'DQQQ0000',
      freq: 'day',
    });
    assert.deepEqual(r.cell?.fields.datasourceIds, ['DQQQ0000']);
    assert.equal(r.cell?.fields.outputFrequency, 'day');
  });

  it('an unknown parameter is an error at the reference, with a did-you-mean', () => {
    const r = withParams('recent\ndatasourceIds: {{sitee}}');
    assert.equal(r.cell, undefined);
    const [d] = errorsOf(r);
    assert.equal(d.code, 'unknown-parameter');
    assert.equal(d.suggestion, '{{site}}');
    assert.deepEqual(
      quickFixes('recent\ndatasourceIds: {{sitee}}', [d]).map((f) => [f.title, f.newText]),
      [["Change '{{sitee}}' to '{{site}}'", '{{site}}']],
    );
    assert.deepEqual(d.range, { start: { line: 1, column: 15 }, end: { line: 1, column: 24 } });
    const none = parseCell('recent\ndatasourceIds: {{site}}', { now: NOW });
    assert.match(errorsOf(none)[0].message, /no 'params' cell/);
  });

  it('a reference is a whole value: text around it, or a malformed one, is an error', () => {
    for (const v of ['startTime: {{start}}Z', 'startTime: x{{start}}', 'startTime: {{start}', 'startTime: {{}}']) {
      const r = withParams(`recent\ndatasourceIds: A\n${v}`);
      assert.equal(r.cell, undefined, v);
      assert.ok(
        errorsOf(r).some((d) => d.code === 'unknown-parameter' || d.code === 'bad-value'),
        v,
      );
    }
  });

  it('a parameter of the wrong type for the field is an error naming both', () => {
    const r = withParams('recent\ndatasourceIds: A\nstartTime: {{threshold}}');
    assert.match(errorsOf(r)[0].message, /'threshold' is a number parameter; startTime takes a time value/);
    const bad = withParams('recent\ndatasourceIds: A\noutputFrequency: {{site}}');
    assert.match(errorsOf(bad)[0].message, /'DABC1234' is not a valid outputFrequency/);
  });

  it('injection: a value with a newline, a second field or }} stays one value and is refused by its field', () => {
    // A text parameter given `x\nallDatasources: true` is refused as a value (a control character).
    assert.ok('error' in readParamValue('text', 'DABC1234\nallDatasources: true'));
    // Without control characters: `A, B` (a comma list) and `}}` text remain one item, refused as an id.
    for (const site of ['DABC1234 allDatasources: true', 'A}}, {{B', 'A, B']) {
      const values = new Map([['site', { type: 'text' as const, value: site, text: site }]]);
      const r = parseCell('recent\ndatasourceIds: {{site}}', { now: NOW, params: values });
      assert.equal(r.cell, undefined, site);
      assert.equal(errorsOf(r)[0].code, 'bad-parameter', site);
    }
    // A metricSelect value from a parameter is checked as the field: its error lies on the reference.
    const values = new Map([['m', { type: 'text' as const, value: 'only', text: 'only' }]]);
    const r = parseCell('recent\ndatasourceIds: A\nmetricSelect: {{m}}', { now: NOW, params: values });
    assert.equal(r.cell, undefined);
    assert.deepEqual(errorsOf(r)[0].range, { start: { line: 2, column: 14 }, end: { line: 2, column: 19 } });
  });
});

describe('parameters: completion and hover', () => {
  it('a {{name}} in an id list is no id: neither hovered as one nor checked against the datasources', () => {
    const text = 'recent\ndatasourceIds: {{ site }}, DQQQ0000';
    assert.equal(idAt(text, { line: 1, column: 18 }), undefined);
    assert.equal(idAt(text, { line: 1, column: 29 })?.id, 'DQQQ0000');
    const ds = [{ datasourceId: 'DABC1234', sourceType: 'SERVICE_NODE', currentSourceId: 'N1' }] as DatasourceInfo[];
    assert.deepEqual(
      unknownIdDiagnostics(text, ds).map((d) => d.range.start.column),
      [27],
    );
    const h = hoverAt(text, { line: 1, column: 18 }, { now: NOW, params: defs() });
    assert.match(h?.contents ?? '', /\*\*site\*\*: text parameter/);
  });

  it('completes parameter names after {{, closing the braces', async () => {
    const items = await completeAt('recent\ndatasourceIds: {{s', { line: 1, column: 18 }, { now: NOW, params: defs() });
    assert.deepEqual(
      items.map((i) => [i.label, i.insertText, i.detail]),
      [
        ['site', 'site}}', 'text parameter = DABC1234'],
        ['sites', 'sites}}', 'ids parameter = DABC1234, DXYZ5678'],
        ['start', 'start}}', 'time parameter = -7d'],
      ],
    );
  });

  it('hover on {{name}} shows its type and default (a relative time also as it is now)', () => {
    const text = 'recent\ndatasourceIds: A\nstartTime: {{start}}';
    const h = hoverAt(text, { line: 2, column: 14 }, { now: NOW, params: defs() });
    assert.ok(h);
    assert.match(h.contents, /\*\*start\*\*: time parameter \(type from its default\)/);
    assert.match(h.contents, /default: -7d \(resolved when the run starts; now 2026-11-14T12:00:00.000Z\)/);
    assert.deepEqual(h.range, { start: { line: 2, column: 11 }, end: { line: 2, column: 20 } });
    const unknown = hoverAt('recent\nstartTime: {{x}}', { line: 1, column: 13 }, { now: NOW, params: defs() });
    assert.match(unknown?.contents ?? '', /not a parameter/);
    const decl = hoverAt(PARAMS_CELL, { line: 9, column: 2 }, { now: NOW, params: defs() });
    assert.match(decl?.contents ?? '', /\*\*label\*\*: text parameter\n/);
  });
});
