// What a table's chart starts on and whom it tells of a new choice: the notebook renderer sets it per output
// (the cell's last choice from ResultInfo.chart, and a message to the host that keeps the choice in the cell's
// metadata, so exports draw the same chart); the chart view reads it. Keyed by the Table the widget shows.
import type { ChartChoice } from '../../core/notebook/renderer-protocol';
import type { Table } from '../../core/table/table';

interface ChartMemory {
  choice?: ChartChoice;
  remember?: (choice: ChartChoice) => void;
}

const memories = new WeakMap<Table, ChartMemory>();

export function setChartMemory(table: Table, memory: ChartMemory): void {
  memories.set(table, memory);
}

export function chartMemory(table: Table): ChartMemory | undefined {
  return memories.get(table);
}
