export * from './poller';
export * from './request-echo';
export * from './schedule';
export * from './status';
