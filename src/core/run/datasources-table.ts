// The org's datasources (GET /v2/datasources) as a Table, so the `datasources` verb renders like any result.
import type { DatasourceList } from '../api/types';
import { Interner } from '../table/interner';
import type { Column, DictColumn, Table } from '../table/table';

function textColumn(name: string, kind: DictColumn['kind'], values: (string | null | undefined)[]): Column {
  const dict = new Interner();
  const codes = Int32Array.from(values, (v) => dict.codeOrEmpty(v));
  return { name, kind, dict: dict.values, codes };
}

export function datasourcesTable(list: DatasourceList): Table {
  const ds = list.datasources;
  return {
    rowCount: ds.length,
    columns: [
      textColumn(
        'datasourceId',
        'identifier',
        ds.map((d) => d.datasourceId),
      ),
      textColumn(
        'name',
        'text',
        ds.map((d) => d.orgAnnotations?.name),
      ),
      textColumn(
        'group',
        'text',
        ds.map((d) => d.orgAnnotations?.group),
      ),
      textColumn(
        'tags',
        'text',
        ds.map((d) => (d.orgAnnotations?.tags ?? []).join(', ')),
      ),
      textColumn(
        'sourceType',
        'text',
        ds.map((d) => d.sourceType),
      ),
      textColumn(
        'currentSourceId',
        'identifier',
        ds.map((d) => d.currentSourceId),
      ),
      textColumn(
        'currentSubscriptionId',
        'identifier',
        ds.map((d) => d.currentSubscriptionId),
      ),
    ],
  };
}
