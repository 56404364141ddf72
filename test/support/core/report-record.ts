// A report record as the service sends it (the client tests' replies): id r-1, the status given.
export function reportRecord(status = 'in-progress', extra: Record<string, unknown> = {}) {
  return {
    reportId: 'r-1',
    reportStatus: status,
    message: status,
    report: 'datasource-measurements',
    urls: [],
    query: {},
    ...extra,
  };
}
