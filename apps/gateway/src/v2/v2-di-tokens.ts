/** Injection tokens of the v2 core module's providers (see v2-core.module.ts). */
export const V2_RATE_LIMITER = Symbol('V2_RATE_LIMITER');
export const FLOOD_CONTROL = Symbol('FLOOD_CONTROL');
/** GET /files per token or session (FILE_RATE_LIMIT_*): a budget of its own, apart from the token's /v2 requests. */
export const FILE_RATE_LIMITER = Symbol('FILE_RATE_LIMITER');
/** Requests per client address on the routes served without a token (PUBLIC_RATE_LIMIT_*). */
export const PUBLIC_RATE_LIMITER = Symbol('PUBLIC_RATE_LIMITER');
