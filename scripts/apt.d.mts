/** The packages of `pkgs` that dpkg-query's `${Package} ${Status}` lines do not show as installed. */
export function missingPackages(pkgs: string[], dpkgQueryOutput: string): string[];
/** The apt-get argv that installs exactly `missing`, with --no-upgrade. */
export function aptInstallArgv(missing: string[]): string[];
/** Installs the missing packages of `pkgs` (named first); returns those it installed. */
export function ensureAptPackages(pkgs: string[], opts?: { log?: (msg: string) => void; why?: string }): string[];
