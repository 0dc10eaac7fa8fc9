/** Injection tokens of the v2 core module's providers (see v2-core.module.ts). */
export const V2_RATE_LIMITER = Symbol('V2_RATE_LIMITER');
export const FLOOD_CONTROL = Symbol('FLOOD_CONTROL');
