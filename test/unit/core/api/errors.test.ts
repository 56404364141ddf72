// The catalogue of errors (src/core/api/errors.ts): every error class of measnb lives there, each with one
// stable code spelled UPPER_SNAKE, a code belonging to one class (a subclass may keep its parent's), and no
// error class is declared anywhere else in src but the emulator's HttpError (the remote service's reply).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as catalogue from '../../../../src/core/api/errors';
import {
  ArchiveError,
  ArchiveQuotaError,
  AttemptFailedError,
  CellError,
  EngineQueryError,
  ERROR_CODES,
  EvaluationReportError,
  FileNameRefusal,
  IncompleteReplyError,
  InputLimitError,
  MalformedReplyError,
  MEASUREMENTS_ERROR_CODES,
  MeasnbError,
  MeasurementsError,
  MissingKeyError,
  NotebookFormatError,
  OutputError,
  ParquetPagesTooLarge,
  ReportCellError,
  ReportDeadlineError,
  ReportFailedError,
  RowsUnavailable,
  SpoolLimitError,
  StatisticsInputError,
  TableFileError,
  UnsafePathError,
  UntrustedWorkspaceError,
  UsageError,
} from '../../../../src/core/api/errors';

const SRC = join(__dirname, '..', '..', '..', '..', 'src');

/** One instance of every class in the catalogue (MeasurementsError once per code). */
function samples(): MeasnbError[] {
  const record = { reportId: 'r1', reportStatus: 'failed', message: 'boom' } as never;
  const cell = { severity: 'error', message: 'bad', range: { start: { line: 0, column: 0 } } };
  return [
    ...MEASUREMENTS_ERROR_CODES.map((c) => new MeasurementsError(c, 'x')),
    new ReportDeadlineError('r1', 60_000),
    new IncompleteReplyError('x'),
    new MalformedReplyError('x'),
    new InputLimitError('columns', 'x'),
    new OutputError(new Error('x')),
    new AttemptFailedError(new MeasurementsError('NETWORK', 'x'), { retry: true }),
    new TableFileError('x'),
    new ParquetPagesTooLarge(10, 5),
    new UnsafePathError('x'),
    new NotebookFormatError('cells[0]', 'x'),
    new CellError([cell]),
    new ReportCellError('x'),
    new EngineQueryError({ message: 'x' }),
    new FileNameRefusal('x'),
    new ReportFailedError(record),
    new UsageError('x'),
    new SpoolLimitError('x'),
    new UntrustedWorkspaceError('x'),
    new MissingKeyError('c'),
    new RowsUnavailable('x'),
    new StatisticsInputError('x'),
    new EvaluationReportError('x'),
    ...(['ARCHIVE_INPUT', 'ARCHIVE_UNKNOWN_DATASOURCE', 'ARCHIVE_MANIFEST', 'ARCHIVE_REPORT_CONTENT'] as const).map(
      (c) => new ArchiveError(c, 'x'),
    ),
    new ArchiveQuotaError('x', new Date(0), 1),
  ];
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The classes the catalogue exports (every exported constructor that makes an Error), but the abstract base. */
function exportedClasses(): ErrorClass[] {
  const values: unknown[] = Object.values(catalogue);
  return values.filter(
    (v): v is ErrorClass => typeof v === 'function' && v.prototype instanceof Error && v !== MeasnbError,
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('the catalogue of errors (core/api/errors.ts)', () => {
  it('lists every code once, each spelled UPPER_SNAKE', () => {
    assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length, 'a code listed twice');
    for (const code of ERROR_CODES) assert.match(code, /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/, code);
  });

  it('every class is a MeasnbError with a listed code, and every listed code is used', () => {
    const errors = samples();
    assert.deepEqual(
      new Set(errors.map((e) => e.constructor)),
      new Set(exportedClasses()),
      'the samples cover exactly the exported classes',
    );
    for (const e of errors) {
      assert.ok(e instanceof MeasnbError && e instanceof Error, e.name);
      assert.ok((ERROR_CODES as readonly string[]).includes(e.code), `${e.name}: ${e.code}`);
      assert.ok(e.message.length > 0, e.name);
    }
    assert.deepEqual(new Set(errors.map((e) => e.code)), new Set(ERROR_CODES), 'a listed code no class carries');
  });

  it('a code belongs to one class (a subclass may keep its parent code)', () => {
    const owner = new Map<string, ErrorClass>();
    for (const e of samples()) {
      const cls = e.constructor as ErrorClass;
      const first = owner.get(e.code);
      if (!first) owner.set(e.code, cls);
      else assert.ok(first === cls || cls.prototype instanceof first, `${e.code}: ${first.name} and ${cls.name}`);
    }
  });

  it('each class names itself (its `name` is its class name; Restricted Mode is the title users see)', () => {
    for (const e of samples()) {
      const expected = e instanceof UntrustedWorkspaceError ? 'Restricted Mode' : e.constructor.name;
      assert.equal(e.name, expected);
    }
  });

  it('keeps the meaning callers decide by: transient codes, the deadline, malformed vs. input limit', () => {
    assert.ok(catalogue.isTransientError(new MeasurementsError('NETWORK', 'x')));
    assert.ok(!catalogue.isTransientError(new ReportDeadlineError('r1', 1000)), 'a deadline is not ridden out');
    assert.equal(new ReportDeadlineError('r1', 1000).code, 'TIMEOUT');
    assert.ok(new InputLimitError('line-bytes', 'x') instanceof MalformedReplyError);
    assert.equal(
      new OutputError(Object.assign(new Error('no space'), { code: 'ENOSPC' })).message,
      'Cannot write the output: ENOSPC.',
    );
  });

  it('no error class is declared in src outside the catalogue, but the emulator HttpError and the time floor', () => {
    // The emulator stands for the remote service: its HttpError becomes a status and a JSON body on the
    // wire, never an error measnb throws; keeping it out keeps the service from sharing the client's types.
    // core/time is the floor below core/api (docs/ARCHITECTURE.md): its one error, TimeZoneError (code
    // TIME_ZONE, a bad IANA name), cannot import the catalogue's base and is declared beside the zone.
    const allowed = new Set(['core/api/errors.ts', 'emulator/http.ts', 'core/time/zone.ts']);
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file).split('\\').join('/');
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/class\s+(\w+)(?:<[^>]*>)?\s+extends\s+(\w*Error\w*|Error)\b/g)) {
        if (!allowed.has(rel)) found.push(`${rel}: ${m[1]} extends ${m[2]}`);
      }
    }
    assert.deepEqual(found, []);
    const emulator = readFileSync(join(SRC, 'emulator', 'http.ts'), 'utf8');
    assert.equal(
      [...emulator.matchAll(/class\s+\w+\s+extends\s+Error\b/g)].length,
      1,
      'the emulator has one: HttpError',
    );
  });
});
