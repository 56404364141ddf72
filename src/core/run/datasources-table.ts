// The org's datasources (GET /v2/datasources) as a Table, so the `datasources` verb renders like any result.
import type { DatasourceList } from '../api/types';
import { type ParamDef, type ParamValues, paramsCaption } from '../query/params';
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

/** A params cell's result: each parameter, its type, the value of this run (resolved for a relative time), its default. */
export function paramsTable(defs: readonly ParamDef[], values: ParamValues, now: Date): Table {
  const value = (d: ParamDef) => paramsCaption([d.name], new Map([[d.name, values.get(d.name) ?? d.default]]), now);
  return {
    rowCount: defs.length,
    columns: [
      textColumn(
        'name',
        'identifier',
        defs.map((d) => d.name),
      ),
      textColumn(
        'type',
        'text',
        defs.map((d) => d.type),
      ),
      textColumn(
        'value',
        'text',
        defs.map((d) => value(d).slice(d.name.length + 1)),
      ),
      textColumn(
        'default',
        'text',
        defs.map((d) => d.default.text),
      ),
    ],
  };
}
