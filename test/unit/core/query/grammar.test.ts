// The TextMate grammar, checked with VS Code's own engine: vscode-textmate with the Oniguruma regex
// library (vscode-oniguruma's wasm), so a grammar VS Code would reject or scan differently fails here.
// Grammars the measq grammar includes (e.g. source.sql for embedded SQL) are not loaded: an include of a
// missing grammar is skipped, as VS Code does when that language is not installed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { type IGrammar, INITIAL, type IOnigLib, type IRawGrammar, parseRawGrammar, Registry } from 'vscode-textmate';

const GRAMMAR_PATH = join(__dirname, '../../../../syntaxes/measq.tmLanguage.json');
const grammarText = readFileSync(GRAMMAR_PATH, 'utf8');
const grammar = JSON.parse(grammarText) as {
  scopeName: string;
  patterns: unknown[];
  repository: Record<string, unknown>;
};

let onigReady: Promise<IOnigLib> | undefined;
function onigLib(): Promise<IOnigLib> {
  onigReady ??= (async () => {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    return {
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    };
  })();
  return onigReady;
}

/**
 * VS Code's own SQL grammar (source.sql) stands in as a one-rule grammar: a rule whose include is
 * missing is dropped by vscode-textmate, so the embedded block is tested with an SQL grammar present,
 * as it is in VS Code.
 */
const SQL_STAND_IN = JSON.stringify({
  scopeName: 'source.sql',
  patterns: [{ match: '(?i)\\b(select|from|where|group|by)\\b', name: 'keyword.other.sql' }],
});

/** The grammar as VS Code loads it; with `sql`, a stand-in for VS Code's SQL grammar too. */
async function loadGrammar(text = grammarText, { sql = false } = {}): Promise<IGrammar> {
  const registry = new Registry({
    onigLib: onigLib(),
    loadGrammar: async (scopeName) => {
      if (scopeName === 'source.measq') return parseRawGrammar(text, GRAMMAR_PATH);
      if (scopeName === 'source.sql' && sql) return parseRawGrammar(SQL_STAND_IN, 'sql.json');
      return null as unknown as IRawGrammar;
    },
  });
  const g = await registry.loadGrammar('source.measq');
  assert.ok(g, 'the grammar loads');
  return g;
}

let measq: IGrammar;

type Token = [text: string, scopes: string[]];

function tokensOf(g: IGrammar, line: string): Token[] {
  const r = g.tokenizeLine(line, INITIAL);
  return r.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes]);
}
const tokens = (line: string) => tokensOf(measq, line);

/** The texts of the runs of adjacent tokens that carry `scope`. */
function runs(toks: Token[], scope: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  for (const [text, scopes] of toks) {
    if (scopes.includes(scope)) current = (current ?? '') + text;
    else if (current !== undefined) {
      out.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) out.push(current);
  return out;
}

const has = (line: string, text: string, scope: string) =>
  assert.ok(
    runs(tokens(line), scope).includes(text),
    `${JSON.stringify(line)}: expected ${text} as ${scope}, got ${JSON.stringify(tokens(line))}`,
  );

interface Rule {
  match?: string;
  begin?: string;
  end?: string;
  patterns?: Rule[];
}

describe('measq TextMate grammar (vscode-textmate + Oniguruma)', () => {
  before(async () => {
    measq = await loadGrammar();
  });

  it('is a grammar VS Code loads, every regex compiles in Oniguruma', async () => {
    assert.equal(grammar.scopeName, 'source.measq');
    const lib = await onigLib();
    const all = (r: Rule): Rule[] => [r, ...(r.patterns ?? []).flatMap(all)];
    const rules = [...(grammar.patterns as Rule[]), ...(Object.values(grammar.repository) as Rule[])].flatMap(all);
    let count = 0;
    for (const rule of rules) {
      for (const re of [rule.match, rule.begin, rule.end]) {
        if (!re) continue;
        assert.doesNotThrow(() => lib.createOnigScanner([re]), re);
        count++;
      }
    }
    assert.ok(count > 10, `${count} regexes checked`);
    // Oniguruma is what rejects: a pattern JavaScript would not even parse the same way.
    assert.throws(() => lib.createOnigScanner(['(?<name']));
  });

  it('survives an include of a grammar that is not installed (e.g. source.sql for embedded SQL)', async () => {
    const withSql = JSON.parse(grammarText);
    withSql.patterns.unshift({
      begin: '^sql$',
      end: '^(?=\\S)',
      name: 'meta.embedded.sql',
      patterns: [{ include: 'source.sql' }],
    });
    const g = await loadGrammar(JSON.stringify(withSql));
    assert.ok(runs(tokensOf(g, 'recent'), 'keyword.control.verb.measq').includes('recent'));
    let stack = INITIAL;
    for (const line of ['sql', 'select 1']) stack = g.tokenizeLine(line, stack).ruleStack;
    assert.ok(stack, 'tokenizing through the embedded block does not throw');
  });

  it('colours verbs, report kinds and the polling interval', () => {
    has('recent', 'recent', 'keyword.control.verb.measq');
    has('datasources', 'datasources', 'keyword.control.verb.measq');
    has('report node-measurements', 'report', 'keyword.control.verb.measq');
    has('report node-measurements', 'node-measurements', 'entity.name.type.report-kind.measq');
    has('follow every 5m', 'every', 'keyword.other.every.measq');
    has('follow every 5m', '5m', 'constant.numeric.duration.measq');
    has('follow every 1h30m', '1h30m', 'constant.numeric.duration.measq');
  });

  it('colours the params verb and {{name}} parameters as values', () => {
    has('params', 'params', 'keyword.control.verb.measq');
    has('datasourceIds: {{site}}, DABC1234', '{{site}}', 'variable.other.parameter.measq');
    has('startTime: {{ start }}', '{{ start }}', 'variable.other.parameter.measq');
  });

  it('colours keys, values, times, ids and comments', () => {
    has('datasourceIds: DABC1234, DXYZ5678', 'datasourceIds', 'variable.other.property.key.measq');
    has('datasourceIds: DABC1234, DXYZ5678', 'DXYZ5678', 'string.unquoted.id.measq');
    has('datasourceIds: DABC1234, DXYZ5678', ',', 'punctuation.separator.comma.measq');
    has('startTime: -6h # six hours', '-6h', 'constant.other.time.relative.measq');
    has('startTime: -1h30m', '-1h30m', 'constant.other.time.relative.measq');
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
    assert.ok(
      !tokens('datasourceIds: D2026X').some(([, scopes]) => scopes.some((s) => s.startsWith('constant.other.time'))),
    );
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

  it('a sql cell: the verb line, then the embedded SQL block to the end of the cell', async () => {
    const g = await loadGrammar(grammarText, { sql: true });
    const first = tokensOf(g, 'sql as daily');
    assert.deepEqual(runs(first, 'keyword.control.verb.measq'), ['sql']);
    assert.deepEqual(runs(first, 'entity.name.variable.result.measq'), ['daily']);
    assert.deepEqual(runs(tokensOf(g, 'sqlite'), 'keyword.control.verb.measq'), [], 'only the verb sql opens a block');
    // No SQL line (not even one that looks like measq) closes the block or is read as measq.
    let stack = g.tokenizeLine('sql as daily', INITIAL).ruleStack;
    const select = g.tokenizeLine('SELECT * FROM pm', stack);
    assert.ok(
      select.tokens.some((t) => t.scopes.includes('keyword.other.sql')),
      'SQL is coloured by the SQL grammar',
    );
    for (const line of ['SELECT * FROM pm', '# not a comment in SQL', 'startTime: -6h', '', ')', 'recent']) {
      const r = g.tokenizeLine(line, stack);
      for (const t of r.tokens) {
        assert.ok(t.scopes.includes('meta.embedded.block.sql'), `${JSON.stringify(line)}: ${t.scopes.join(' ')}`);
        assert.ok(!t.scopes.some((x) => x.endsWith('.measq') && x !== 'source.measq'), `${line}: ${t.scopes}`);
      }
      stack = r.ruleStack;
    }
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
    const entry = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === 'source.measq');
    assert.deepEqual(entry.embeddedLanguages, { 'meta.embedded.block.sql': 'sql' });
  });
});
