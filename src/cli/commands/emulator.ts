// `measnb emulator`: runs the local service emulator until Ctrl-C and says how to connect to it.
import type { Command } from 'commander';
import { DEFAULT_SEED, type RunningEmulator, startEmulator } from '../../emulator/index';
import { durationFlag, integerFlag } from '../flag-values';

interface EmulatorCliOptions {
  port?: string;
  state?: string;
  seed: string;
  reportDelay?: string;
  control?: boolean;
  json?: boolean;
  datasources?: string;
}

export function registerEmulatorCommand(program: Command): void {
  program
    .command('emulator')
    .description('Run the local measurements service emulator on 127.0.0.1 (until Ctrl-C)')
    .option('--port <n>', 'port to listen on (default: any free port, or the last one with --state)')
    .option('--state <file>', 'keep reports and quota in this JSON file between runs')
    .option('--seed <n>', 'seed of the generated data, orgs and keys', String(DEFAULT_SEED))
    .option('--report-delay <duration>', 'how long reports stay in progress, e.g. 5s')
    .option('--datasources <n>', 'datasources of the demo org (default 20)')
    .option('--control', 'enable the test-only endpoints POST /_emulator/clock and /_emulator/faults')
    .option('--json', 'print one JSON line {"baseUrl","org","apiKey"} once listening')
    .action(async (opts: EmulatorCliOptions) => {
      const emulator = await startEmulator({
        port: opts.port === undefined ? undefined : integerFlag('port', opts.port, 0, 65535),
        stateFile: opts.state,
        seed: integerFlag('seed', opts.seed, 0, 2 ** 31 - 1),
        reportDelayMs: opts.reportDelay === undefined ? undefined : durationFlag('report-delay', opts.reportDelay),
        datasources:
          opts.datasources === undefined ? undefined : integerFlag('datasources', opts.datasources, 1, 100_000),
        control: opts.control ?? false,
      });
      printStarted(emulator, opts);
      await untilInterrupted();
      await emulator.close();
    });
}

function printStarted(emulator: RunningEmulator, opts: EmulatorCliOptions): void {
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ baseUrl: emulator.url, org: emulator.org, apiKey: emulator.apiKey })}\n`);
    return;
  }
  const lines = [
    `Measurements service emulator listening on ${emulator.url}`,
    `  report files served from ${emulator.fileHost.url} (another origin, as the service's object store)`,
    `  org:      ${emulator.org}`,
    `  API key:  ${emulator.apiKey}`,
    `  second org (no access with the key above): ${emulator.secondOrg.org}`,
    `  datasources: ${emulator.facts.datasources.length} (moved: ${emulator.facts.moved}, unsubscribed for a period: ${emulator.facts.unsubscribed})`,
  ];
  if (opts.control)
    lines.push(
      '  control:  POST /_emulator/clock {"advance":"25h"} | {"set":"<ISO>"}; POST /_emulator/faults; GET /_emulator/file-host',
    );
  lines.push('Press Ctrl-C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
