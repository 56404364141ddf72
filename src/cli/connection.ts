// Where the CLI sends requests: --base-url/--org (or MEASUREMENTS_BASE_URL/MEASUREMENTS_ORG) with the
// key from MEASUREMENTS_API_KEY only, or --emulator (an in-process local emulator).
import type { Command } from 'commander';
import { UsageError } from '../core/api/errors';
import { MeasurementsClient } from '../core/client/client.node';
import type { ServiceKind } from '../core/query/metric-select';
import type { WaitClock } from '../core/time/clock';
import { durationFlag } from './flag-values';

const API_KEY_ENV = 'MEASUREMENTS_API_KEY';
const BASE_URL_ENV = 'MEASUREMENTS_BASE_URL';
const ORG_ENV = 'MEASUREMENTS_ORG';

export interface ConnectionFlags {
  baseUrl?: string;
  org?: string;
  emulator?: boolean;
  emulatorReportDelay?: string;
}

export interface Connection {
  baseUrl: string;
  org?: string;
  /** Only for the streaming CSV path; never printed. */
  apiKey?: string;
  client: MeasurementsClient;
  /** A name for messages: the URL, or "local emulator". */
  label: string;
  /** The in-process emulator (`--emulator`), or a service at a URL: checked as a real one, whatever it is. */
  service: ServiceKind;
  close(): Promise<void>;
}

export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--base-url <url>', `service base URL (default: $${BASE_URL_ENV})`)
    .option('--org <org>', `organization (default: $${ORG_ENV}; a cell's org: line wins)`)
    .option('--emulator', 'start a local emulator in this process and use it')
    .option('--emulator-report-delay <duration>', 'with --emulator: how long reports stay in progress (default 3s)');
}

/** Who the flags send cells to, known before the connection opens (cells are checked first). */
export function serviceOf(flags: ConnectionFlags): ServiceKind {
  return flags.emulator ? 'emulator' : 'real';
}

/** A connection whose client reads and waits on `clock` (the action's; an emulator started here starts there). */
export async function openConnection(flags: ConnectionFlags, clock: WaitClock): Promise<Connection> {
  if (flags.emulator) {
    const { startEmulator } = await import('../emulator/index');
    const delay = flags.emulatorReportDelay;
    const emu = await startEmulator({
      reportDelayMs: delay === undefined ? undefined : durationFlag('emulator-report-delay', delay),
      clock: clock.nowMs(),
    });
    return {
      baseUrl: emu.url,
      org: flags.org ?? emu.org,
      apiKey: emu.apiKey,
      client: new MeasurementsClient({ baseUrl: emu.url, apiKey: emu.apiKey, clock }),
      label: `local emulator (${emu.url})`,
      service: 'emulator',
      close: () => emu.close(),
    };
  }
  const baseUrl = flags.baseUrl ?? process.env[BASE_URL_ENV];
  if (!baseUrl) {
    throw new UsageError(
      `No service given: use --base-url <url> (or set ${BASE_URL_ENV}) with the key in ${API_KEY_ENV}, or --emulator to try a local emulator.`,
    );
  }
  const apiKey = process.env[API_KEY_ENV] || undefined;
  let client: MeasurementsClient;
  try {
    client = new MeasurementsClient({ baseUrl, apiKey, clock });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  return {
    baseUrl,
    org: flags.org ?? (process.env[ORG_ENV] || undefined),
    apiKey,
    client,
    label: baseUrl,
    service: 'real',
    close: async () => undefined,
  };
}
