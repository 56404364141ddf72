// The typed result of parsing a cell. Times stay symbolic (relative to the run) until resolveCell.
import type {
  DataVersion,
  FileFormat,
  MetricLabelStyle,
  OutputFrequency,
  RecentFormat,
  ReportKind,
} from '../api/types';
import type { Range } from './diagnostics';
import type { FieldName, Verb } from './fields';
import type { ParamDef } from './params';
import type { TimeValue } from './time';

export interface ParsedFields {
  org?: string;
  allDatasources?: boolean;
  datasourceIds?: string[];
  nodeIds?: string[];
  refSiteIds?: string[];
  outputFrequency?: OutputFrequency;
  format?: RecentFormat;
  fileFormat?: FileFormat;
  startTime?: TimeValue;
  endTime?: TimeValue;
  metricSelect?: string;
  metricLabelStyle?: MetricLabelStyle;
  qcAssessment?: boolean;
  qcFlags?: boolean;
  dataVersion?: DataVersion;
  locationRounding?: number;
}

export interface FieldRanges {
  key: Range;
  value: Range;
}

export interface ParsedCell {
  verb: Verb;
  /** Only for `report`. */
  reportKind?: ReportKind;
  /** Only for `follow every <duration>`: the polling interval. */
  every?: { text: string; ms: number };
  fields: ParsedFields;
  /** Where each written key and its value are (for diagnostics found later, e.g. by the server). */
  ranges: Partial<Record<FieldName, FieldRanges>>;
  verbRange: Range;
  /** `<verb line> as <name>`: the name the cell's result is known by in later sql cells. */
  name?: string;
  nameRange?: Range;
  /** Only for `sql`: the SQL text after the verb line, and the cell line it starts on. */
  sql?: { text: string; line: number };
  /** Only for `params`: the parameters it declares, with their defaults. */
  params?: ParamDef[];
  /** The parameters the cell's values name (`{{site}}`), in order of first use. */
  usedParams?: string[];
}
