/** DI tokens of DispatcherModule's providers that are not classes (in a file of their own: the lifecycle injects them too). */

/** RPC client of the rooms service for replies (notifications). */
export const ROOMS_RPC = Symbol('ROOMS_RPC');
/** RPC client of the rooms service for registration snapshots: a shorter wait, retried. */
export const REGISTRATIONS_RPC = Symbol('REGISTRATIONS_RPC');
/** The BatchWriter of attempt records. */
export const ATTEMPT_RECORDER = Symbol('ATTEMPT_RECORDER');
/** The bridges' posting budgets ({limiter, close}: createBridgeRateLimiter), shared through Redis. */
export const BRIDGE_LIMITER = Symbol('BRIDGE_LIMITER');
