import type { Actor, CommandDefinition, TokenKind } from '@app/contracts';
import type { RequestParams } from '../../shared/request-params';

export type HttpVerb = 'GET' | 'POST';

/**
 * One v1 method: who may call it and how, how its parameters become a command (400 naming
 * the parameter and the rule), and how the command's reply becomes the v1 answer.
 */
/** A v1 method as the API reference shows it: what it does and each parameter it reads. */
export interface V1MethodDoc {
  summary: string;
  /** Each parameter the method reads besides auth_token and format, in the order it checks them. */
  params: Readonly<Record<string, { required: boolean; description: string }>>;
}

export const required = (description: string) => ({ required: true, description });
export const optional = (description: string) => ({ required: false, description });

export interface V1Method<Req = unknown, Rep = unknown> {
  doc: V1MethodDoc;
  verbs: readonly HttpVerb[];
  kinds: readonly TokenKind[];
  command: CommandDefinition<Req, Rep>;
  request(params: RequestParams, actor: Actor): Req;
  /** The reply as the v1 answer; `params` for what the answer's form depends on (a time zone). */
  present(reply: Rep, request: Req, params: RequestParams): Record<string, unknown>;
}

/** Types a method by its command (so that `request` and `present` are checked against it). */
export const v1Method = <Req, Rep>(method: V1Method<Req, Rep>): V1Method<Req, Rep> => method;

/**
 * The HTTP verbs a method is served under, in Allow order: its own, and HEAD beside a GET
 * that only reads (its command a query), answered as that GET without a body. Not beside
 * rooms/message's GET, which sends: HEAD must never act (RFC 9110, 9.2.1).
 */
export function servedVerbs(method: Pick<V1Method<any, any>, 'verbs' | 'command'>): string[] {
  return method.verbs.flatMap((verb) => (verb === 'GET' && method.command.query ? ['GET', 'HEAD'] : [verb]));
}

export const ADMIN = ['admin'] as const;
export const ANY_TOKEN = ['admin', 'notification'] as const;
