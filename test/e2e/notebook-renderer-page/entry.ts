// Browser entry for the standalone renderer page: builds a synthetic table of the requested size and mounts it.
import { mountTable } from '../../../src/renderer/dom/mount';
import { syntheticTable } from '../../unit/renderer/synthetic-table';

const params = new URLSearchParams(location.search);
const rows = Number(params.get('rows') ?? '1000');
const table = syntheticTable(rows);
(window as unknown as { measnbReady: boolean }).measnbReady = false;
mountTable(document.getElementById('out')!, table, {
  info: { title: 'synthetic', notes: [`synthetic ${rows} rows`] },
  save: async (format, viewRows) => `would save ${viewRows.length} rows as ${format}`,
});
(window as unknown as { measnbReady: boolean }).measnbReady = true;
