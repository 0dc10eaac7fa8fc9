import { Body, PipeTransform, Query } from '@nestjs/common';
import { describeIssue } from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { ApiError } from '../../shared/api-error';

// Written once in contracts: a webhook receiver's reply is read with the same rules.
export { bodyFlag, describeIssue, optionalField } from '@app/contracts';

/**
 * A request body checked with its operation's schema: unknown fields are dropped (clients
 * send fields we don't know), a known field of the wrong type or value is a 400 naming it.
 */
export class ZodBodyPipe<S extends ZodTypeAny> implements PipeTransform<unknown, z.output<S>> {
  constructor(readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ApiError(400, 'The request body must be a JSON object.');
    }
    const result = this.schema.safeParse(value);
    if (!result.success) throw new ApiError(400, describeIssue(result.error.issues[0]));
    return result.data;
  }
}

/** Query parameters checked with a schema (values arrive as text; a repeated one is refused). */
export class ZodQueryPipe<S extends ZodTypeAny> implements PipeTransform<unknown, z.output<S>> {
  constructor(readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(v)) throw new ApiError(400, `${k}: must be given once`);
      if (typeof v === 'string') flat[k] = v;
    }
    const result = this.schema.safeParse(flat);
    if (!result.success) throw new ApiError(400, describeIssue(result.error.issues[0]));
    return result.data;
  }
}

export const V2Body = (schema: ZodTypeAny) => Body(new ZodBodyPipe(schema));
export const V2Query = (schema: ZodTypeAny) => Query(new ZodQueryPipe(schema));

/** Query flags as HipChat clients send them: true/false (any case), 1/0. */
export const queryFlag = (fallback: boolean) => z.string().optional().transform((v, ctx) => {
  if (v === undefined || v === '') return fallback;
  const s = v.toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be true or false (got "${v}")` });
  return z.NEVER;
});

/** A whole number within bounds, from text. */
export const queryInt = (fallback: number, min: number, max: number) => z.string().optional().transform((v, ctx) => {
  if (v === undefined || v === '') return fallback;
  if (!/^\d{1,10}$/.test(v) || Number(v) < min || Number(v) > max) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a whole number from ${min} to ${max} (got "${v.slice(0, 50)}")` });
    return z.NEVER;
  }
  return Number(v);
});
