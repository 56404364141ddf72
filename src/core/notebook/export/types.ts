export type ExportFormat = 'html' | 'md' | 'ipynb';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['html', 'md', 'ipynb'];

export interface ExportOptions {
  /** Rows of each table written out (default 100); the total is always stated. */
  maxRows?: number;
  /** The document title (HTML); default "Measurements notebook". */
  title?: string;
}
