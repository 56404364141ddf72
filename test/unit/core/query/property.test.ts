import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DatasourceInfo } from '../../../../src/core/api/types';
import { completeAt, hoverAt, idAt, parseCell, resolveCell } from '../../../../src/core/query';
import { NOW } from '../../../support/now';

const now = new Date(NOW);

const DATASOURCE: DatasourceInfo = {
  datasourceId: 'D1',
  orgAnnotations: { group: null, name: 'n', tags: [] },
  currentSubscriptionId: 'S1',
  currentSourceId: 'A1',
  sourceType: 'SERVICE_NODE',
};

// Fragments that look like the language, so random cells reach deep into the parser.
const fragment = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'recent',
    'follow every 5m',
    'report datasource-measurements',
    'report node-measurements',
    'datasources',
    'datasourceIds: A, B,',
    'nodeIds: A1,',
    'allDatasources: true',
    'startTime: -6h',
    'endTime: 2026-02-30',
    'outputFrequency: hour',
    'metricSelect: only pm2_5* + - :x',
    '# comment',
    ':',
    ',',
    'key:',
    '\r',
    '\t',
  ),
);

describe('query language: arbitrary text never throws', () => {
  it('parses or diagnoses any text, resolves any parsed cell, completes and hovers anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 12 }), fc.nat(), fc.nat(), async (parts, l, c) => {
        const text = parts.join('\n');
        const r = parseCell(text, { now });
        assert.ok(r.cell || r.diagnostics.some((d) => d.severity === 'error'));
        if (r.cell) resolveCell(r.cell, { now, org: 'o' });
        const pos = { line: l % (parts.length + 1), column: c % 40 };
        await completeAt(text, pos, { now, datasources: () => [DATASOURCE] });
        hoverAt(text, pos, { now });
        idAt(text, pos);
      }),
      { numRuns: 1500 },
    );
  });
});
