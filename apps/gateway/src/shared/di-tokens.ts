/** Injection tokens of the shared module's providers (see shared.module.ts). */
export const AMQP_BROKER = Symbol('AMQP_BROKER');
export const ROOMS_RPC = Symbol('ROOMS_RPC');
export const DISPATCHER_RPC = Symbol('DISPATCHER_RPC');
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
