// Follow: continuation cursors and the tail step (no gap, no duplicate row, token expiry handled).
export {
  advanceBoundary,
  boundaryOf,
  type FollowState,
  parseFollowState,
  rowKey,
  sameTail,
  serializeFollowState,
  TOKEN_LIFETIME_MS,
} from './cursor';
export { type FollowLoopEnd, type FollowLoopOptions, followEvery } from './every';
export { type FollowClient, type FollowMode, type FollowStepOptions, type FollowStepResult, followStep } from './step';
