export * from './download';
export * from './local-paths';
export * from './poller';
export * from './schedule';
export * from './status';
