/** Injection tokens of the v2 module's providers (see v2.module.ts). */
export const V2_RATE_LIMITER = Symbol('V2_RATE_LIMITER');
export const FLOOD_CONTROL = Symbol('FLOOD_CONTROL');
