export * from './poller';
export * from './schedule';
export * from './status';
