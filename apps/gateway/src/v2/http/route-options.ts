import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { V2Scope } from '@app/contracts';
import type { ZodTypeAny } from 'zod';

export const PUBLIC_ROUTE = 'v2:public';
export const REQUIRED_SCOPES = 'v2:scopes';
export const FLOOD_CONTROLLED = 'v2:flood';
export const RAW_BODY = 'v2:raw-body';
export const SIGNED_BODY = 'v2:signed-body';
export const JSON_BODY_ONLY = 'v2:json-only';
export const SESSION_ENOUGH = 'v2:session-enough';
export const SUMMARY = 'v2:summary';
export const RESPONSE_SCHEMA = 'v2:response';
export const EVENT_STREAM = 'v2:event-stream';
export const NOTES = 'v2:notes';
export const OTHER_ANSWERS = 'v2:other-answers';

/** Served without a token (capabilities, OAuth token endpoint). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The token needs one of these scopes; a token without any of them gets 403 naming them. */
export const RequireScopes = (...anyOf: V2Scope[]) => SetMetadata(REQUIRED_SCOPES, anyOf);

/**
 * A signed-in session may, whatever its scopes; a token needs one of these scopes (the
 * tokens API: a leaked token without admin_group must not mint more tokens, and one with
 * it can already make users and set their passwords).
 */
export const RequireSessionOrScopes = (...anyOf: V2Scope[]) => applyDecorators(SetMetadata(REQUIRED_SCOPES, anyOf), SetMetadata(SESSION_ENOUGH, true));

/**
 * The body must be JSON: a form-encoded one answers 415. For sign-in, which no cookie
 * protects: a page of another site can submit a form, not send JSON without a preflight
 * we never allow, so it cannot sign a visitor in to an account of its choosing.
 */
export const JsonBodyOnly = () => SetMetadata(JSON_BODY_ONLY, true);

/**
 * A send to the room in the `room` path parameter, counted by the room's flood control
 * (V2AccessGuard), and given back if the send is refused (V2Filter): only accepted sends count.
 */
export const FloodControlled = () => SetMetadata(FLOOD_CONTROLLED, true);

/** The body is kept as bytes (uploads), up to the file size limit rather than the JSON limit. */
export const RawBody = () => SetMetadata(RAW_BODY, true);

/**
 * The body is kept as the bytes that came, up to the JSON limit, for a signature computed
 * over them (Teams signs a bridge's inbound post): read as JSON it could not be checked.
 * `documented`: the body's shape per media type, for the OpenAPI document.
 */
export const SignedBody = (documented: Record<string, ZodTypeAny>) => SetMetadata(SIGNED_BODY, documented);

/** The operation's one-line summary in the OpenAPI document (default: from the method's name). */
export const Summary = (text: string) => SetMetadata(SUMMARY, text);

/** The shape of the success answer, for the OpenAPI document (default: an object). */
export const ResponseSchema = (schema: ZodTypeAny) => SetMetadata(RESPONSE_SCHEMA, schema);

/** How a `text/event-stream` answer is documented: what it carries, and how it is resumed. */
export interface EventStreamDoc {
  /** The stream's events, for the OpenAPI document. */
  description: string;
  /** Request headers it reads (Last-Event-ID). */
  headers: ZodTypeAny;
  query: ZodTypeAny;
}

/** The answer is a stream of Server-Sent Events, not JSON (errors before it starts still are). */
export const EventStream = (doc: EventStreamDoc) => SetMetadata(EVENT_STREAM, doc);
/** More about the operation for the OpenAPI document (its description, after the scopes). */
export const Notes = (text: string) => SetMetadata(NOTES, text);

/** Answers the operation gives besides the usual ones (status: when), for the OpenAPI document. */
export const OtherAnswers = (answers: Record<number, string>) => SetMetadata(OTHER_ANSWERS, answers);
