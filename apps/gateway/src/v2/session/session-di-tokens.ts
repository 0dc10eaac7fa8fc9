/** Injection tokens of the session module's providers (see session.module.ts). */
export const SIGN_IN_THROTTLE = Symbol('SIGN_IN_THROTTLE');
