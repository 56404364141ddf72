// `measnb report status <id>` and `measnb report download <id>`.
import type { Command } from 'commander';
import type { ReportRecord } from '../../core/api/types';
import { downloadReport, waitForReportProgress } from '../../core/run/index.node';
import { safeForTerminal } from '../../core/text/terminal';
import { type ActionContext, action } from '../action';
import { addConnectionOptions, type ConnectionFlags, openConnection } from '../connection';
import { EXIT } from '../exit-codes';
import { describeProgress } from '../progress';

interface StatusOptions extends ConnectionFlags {
  json?: boolean;
}

interface DownloadOptions extends ConnectionFlags {
  dir: string;
  wait?: boolean;
}

export function registerReportCommand(program: Command): void {
  const report = program.command('report').description('Check and download historical reports');
  addConnectionOptions(
    report
      .command('status')
      .description("Print a report's status (JSON when piped or with --json)")
      .argument('<reportId>')
      .option('--json', 'print the report record as JSON'),
  ).action(action(statusAction));
  addConnectionOptions(
    report
      .command('download')
      .description("Download a finished report's files into --dir and print their paths")
      .argument('<reportId>')
      .option('--dir <dir>', 'where to write the files', '.')
      .option('--wait', 'wait for a report still in progress'),
  ).action(action(downloadAction));
}

function describeRecord(r: ReportRecord): string {
  const parts = [`${r.reportId}  ${r.reportStatus}`];
  if (r.report) parts.push(String(r.report));
  if (r.message && r.message !== r.reportStatus) parts.push(r.message);
  if (r.urls.length) parts.push(`${r.urls.length} file${r.urls.length === 1 ? '' : 's'}`);
  if (r.urlsExpireAt) parts.push(`file URLs expire at ${r.urlsExpireAt}`);
  return parts.join('  ·  ');
}

async function statusAction(ctx: ActionContext, reportId: string, opts: StatusOptions): Promise<number> {
  const conn = ctx.use(await openConnection(opts, ctx.clock));
  const record = await conn.client.getReport(reportId, { signal: ctx.signal });
  if (opts.json || !process.stdout.isTTY) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  else process.stdout.write(`${safeForTerminal(describeRecord(record))}\n`);
  return 0;
}

async function downloadAction(ctx: ActionContext, reportId: string, opts: DownloadOptions): Promise<number> {
  const conn = ctx.use(await openConnection(opts, ctx.clock));
  let record = await conn.client.getReport(reportId, { signal: ctx.signal });
  if (record.reportStatus === 'in-progress') {
    if (!opts.wait) {
      ctx.progress.message(`measnb: Report ${reportId} is still in progress; add --wait to wait for it.`);
      return EXIT.notReady;
    }
    record = await waitForReportProgress(conn.client, record, {
      signal: ctx.signal,
      onProgress: (p) => ctx.progress.update(describeProgress(p) ?? ''),
    });
    ctx.progress.clear();
  }
  const { files } = await downloadReport(record, {
    client: conn.client,
    signal: ctx.signal,
    downloadDir: opts.dir,
    onProgress: (p) => ctx.progress.update(describeProgress(p) ?? ''),
  });
  ctx.progress.clear();
  ctx.progress.message(`Report ${reportId}: ${files.length} file${files.length === 1 ? '' : 's'} downloaded`);
  for (const f of files) process.stdout.write(`${safeForTerminal(f)}\n`);
  return 0;
}
