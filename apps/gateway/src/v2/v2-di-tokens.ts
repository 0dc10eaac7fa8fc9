/** Injection tokens of the v2 core module's providers (see v2-core.module.ts). */
export const V2_RATE_LIMITER = Symbol('V2_RATE_LIMITER');
export const FLOOD_CONTROL = Symbol('FLOOD_CONTROL');
/** Requests per client address on the routes served without a token (PUBLIC_RATE_LIMIT_*). */
export const PUBLIC_RATE_LIMITER = Symbol('PUBLIC_RATE_LIMITER');
