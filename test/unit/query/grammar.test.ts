// The TextMate grammar, checked without vscode-textmate (not a dependency): a small scanner applies its
// rules the way TextMate does on single lines (earliest match wins, ties go to the first rule).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Rule {
  name?: string;
  match?: string;
  begin?: string;
  end?: string;
  include?: string;
  patterns?: Rule[];
  captures?: Record<string, { name: string }>;
  beginCaptures?: Record<string, { name: string }>;
  contentName?: string;
}

const grammar = JSON.parse(readFileSync(join(__dirname, '../../../syntaxes/measq.tmLanguage.json'), 'utf8')) as {
  scopeName: string;
  patterns: Rule[];
  repository: Record<string, Rule>;
};

function flatten(rules: Rule[]): Rule[] {
  return rules.flatMap((r) => {
    if (r.include) return r.include.startsWith('#') ? flatten([grammar.repository[r.include.slice(1)]]) : []; // other grammars (source.sql) are VS Code's
    if (!r.match && !r.begin && r.patterns) return flatten(r.patterns);
    return [r];
  });
}

type Token = [text: string, scope: string];

function scan(line: string, rules: Rule[], from: number, out: Token[]): void {
  const flat = flatten(rules);
  let pos = from;
  while (pos < line.length) {
    let best: { rule: Rule; m: RegExpExecArray } | undefined;
    for (const rule of flat) {
      const re = new RegExp(rule.match ?? (rule.begin as string), 'gd');
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m && m[0].length > 0 && (!best || m.index < best.m.index)) best = { rule, m };
    }
    if (!best) return;
    const { rule, m } = best;
    const captures = rule.captures ?? rule.beginCaptures ?? {};
    if (rule.name) out.push([m[0], rule.name]);
    for (const [i, c] of Object.entries(captures)) if (m[Number(i)]) out.push([m[Number(i)], c.name]);
    pos = m.index + m[0].length;
    if (rule.begin) scan(line, rule.patterns ?? [], pos, out); // end is `$`: the rest of the line
    if (rule.begin) return;
  }
}

function tokens(line: string): Token[] {
  const out: Token[] = [];
  scan(line, grammar.patterns, 0, out);
  return out;
}

const has = (line: string, text: string, scope: string) =>
  assert.ok(
    tokens(line).some(([t, s]) => t === text && s === scope),
    `${JSON.stringify(line)}: expected ${text} as ${scope}, got ${JSON.stringify(tokens(line))}`,
  );

describe('measq TextMate grammar', () => {
  it('is a valid grammar whose regexes compile', () => {
    assert.equal(grammar.scopeName, 'source.measq');
    const all = (r: Rule): Rule[] => [r, ...(r.patterns ?? []).flatMap(all)];
    for (const rule of [...grammar.patterns, ...Object.values(grammar.repository)].flatMap(all)) {
      for (const re of [rule.match, rule.begin, rule.end]) if (re) new RegExp(re);
    }
  });

  it('colours verbs, report kinds and the polling interval', () => {
    has('recent', 'recent', 'keyword.control.verb.measq');
    has('datasources', 'datasources', 'keyword.control.verb.measq');
    has('report node-measurements', 'report', 'keyword.control.verb.measq');
    has('report node-measurements', 'node-measurements', 'entity.name.type.report-kind.measq');
    has('follow every 5m', 'every', 'keyword.other.every.measq');
    has('follow every 5m', '5m', 'constant.numeric.duration.measq');
  });

  it('colours keys, values, times, ids and comments', () => {
    has('datasourceIds: DABC1234, DXYZ5678', 'datasourceIds', 'variable.other.property.key.measq');
    has('datasourceIds: DABC1234, DXYZ5678', 'DXYZ5678', 'string.unquoted.id.measq');
    has('datasourceIds: DABC1234, DXYZ5678', ',', 'punctuation.separator.comma.measq');
    has('startTime: -6h # six hours', '-6h', 'constant.other.time.relative.measq');
    has('startTime: -6h # six hours', '# six hours', 'comment.line.number-sign.measq');
    has('endTime: today', 'today', 'constant.other.time.relative.measq');
    has('startTime: 2026-11-01T06:00:00Z', '2026-11-01T06:00:00Z', 'constant.other.time.iso.measq');
    has('startTime: 2026-11-01', '2026-11-01', 'constant.other.time.iso.measq');
    has('qcFlags: true', 'true', 'constant.language.boolean.measq');
    has('outputFrequency: hour', 'hour', 'support.constant.enum.measq');
    has('format: csv-wide', 'csv-wide', 'support.constant.enum.measq');
    has('locationRounding: 5', '5', 'constant.numeric.integer.measq');
    has('metricSelect: only pm2_5ConcMassNowcast + :pollutant', 'only', 'keyword.operator.metric-select.measq');
    has('metricSelect: only pm2_5ConcMassNowcast', 'pm2_5ConcMassNowcast', 'entity.name.function.metric-label.measq');
    has('metricSelect: only pm2_5* + :pollutant', ':pollutant', 'entity.name.tag.metric-category.measq');
    has('# a whole-line comment', '# a whole-line comment', 'comment.line.number-sign.measq');
    has('  # indented comment', '# indented comment', 'comment.line.number-sign.measq');
  });

  it('does not mistake a # inside a value for a comment, nor an id for a time', () => {
    has('org: a#b', 'a#b', 'string.unquoted.id.measq');
    has('datasourceIds: D2026X', 'D2026X', 'string.unquoted.id.measq');
    assert.ok(!tokens('datasourceIds: D2026X').some(([, s]) => s.startsWith('constant.other.time')));
  });

  it('colours result names on verb lines', () => {
    has('recent as pm', 'recent', 'keyword.control.verb.measq');
    has('recent as pm', 'as', 'keyword.other.as.measq');
    has('recent as pm', 'pm', 'entity.name.variable.result.measq');
    has('datasources as ds', 'ds', 'entity.name.variable.result.measq');
    has('report datasource-measurements as rep', 'rep', 'entity.name.variable.result.measq');
    has('follow every 5m as tail', '5m', 'constant.numeric.duration.measq');
    has('follow every 5m as tail', 'tail', 'entity.name.variable.result.measq');
  });

  it('a sql cell: the verb line, then the embedded SQL grammar to the end of the cell', () => {
    has('sql as daily', 'sql', 'keyword.control.verb.measq');
    has('sql as daily', 'daily', 'entity.name.variable.result.measq');
    const rule = grammar.repository['sql-cell'];
    assert.equal(grammar.patterns[1].include, '#sql-cell');
    assert.ok(new RegExp(rule.begin as string).test('sql'));
    assert.ok(!new RegExp(rule.begin as string).test('sqlite'));
    assert.equal(rule.contentName, 'meta.embedded.block.sql');
    assert.deepEqual(rule.patterns, [{ include: 'source.sql' }]);
    // The block never ends inside the cell: no SQL line (not even one that looks like measq) closes it.
    const end = new RegExp(rule.end as string);
    for (const line of ['SELECT * FROM pm', '# not a comment in SQL', 'startTime: -6h', '', ')', 'recent'])
      assert.ok(!end.test(line), line);
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
    const entry = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === 'source.measq');
    assert.deepEqual(entry.embeddedLanguages, { 'meta.embedded.block.sql': 'sql' });
  });
});
