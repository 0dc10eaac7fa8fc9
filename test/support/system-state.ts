/**
 * What the bench shares with the tests about the state a system leaves on the servers: the
 * ledger of killed runs' leftovers and the clean-up, whose queue names come from the services'
 * own declarations. The bench is plain JavaScript: bench/lib/system-state.js bundles this file.
 */
export { removeTestState, trackTestState } from './common';
export { sweepAbandonedTestState } from './test-state';
export { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from '../../apps/webhook-dispatcher/src/delivery/retry-policy';
