// Every path and header name of the service, in one place (client and emulator both use these).

export const API_KEY_HEADER = 'x-api-key';
export const CONTINUATION_TOKEN_HEADER = 'x-service-continuation-token';

export const PATHS = {
  root: '/',
  reportRequests: '/v2/report-requests',
  /** The status path; the service also accepts the singular form (SERVICE-FACTS). */
  reportRequest: (reportId: string) => `/v2/report-requests/${encodeURIComponent(reportId)}`,
  reportRequestSingular: (reportId: string) => `/v2/report-request/${encodeURIComponent(reportId)}`,
  recentQuery: '/v2/recent-datasource-measurements-query',
  continuation: '/v2/recent-datasource-measurements-continuation',
  datasources: '/v2/datasources',
  datasource: (datasourceId: string) => `/v2/datasources/${encodeURIComponent(datasourceId)}`,
} as const;

/**
 * The URL of an API path under the base URL, which may carry a path prefix (`https://host/prefix/`): the
 * path goes after the prefix; the base's query and fragment are dropped; `/` is the base itself.
 */
export function serviceUrl(base: URL | string, path: string, query?: Record<string, string>): URL {
  const u = new URL(typeof base === 'string' ? base : base.href);
  const prefix = u.pathname.replace(/\/+$/, '');
  if (path !== '/') u.pathname = `${prefix}${path}`;
  u.search = '';
  u.hash = '';
  for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
  return u;
}

/** Reports an org may create per UTC day; the throttle resets at UTC midnight. */
export const DAILY_REPORT_LIMIT = 30;
