export function elapsed(ms: number): string;
export function fitWords(text: string, width: number): string;
export function liveLine(title: string, ms: number, detail: string, columns: number): string;
export function startLine(title: string, note?: string): string;
export function heartbeatLine(title: string, ms: number): string;
export function stepOf(line: string): string | undefined;
export function stepLine(step: string, columns?: number): string;
