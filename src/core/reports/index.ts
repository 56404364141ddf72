export * from './download';
export * from './poller';
export * from './schedule';
export * from './status';
