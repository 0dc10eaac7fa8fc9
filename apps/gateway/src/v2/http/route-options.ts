import { SetMetadata } from '@nestjs/common';
import type { V2Scope } from '@app/contracts';
import type { ZodTypeAny } from 'zod';

export const PUBLIC_ROUTE = 'v2:public';
export const REQUIRED_SCOPES = 'v2:scopes';
export const FLOOD_CONTROLLED = 'v2:flood';
export const RAW_BODY = 'v2:raw-body';
export const SUMMARY = 'v2:summary';
export const RESPONSE_SCHEMA = 'v2:response';
export const EVENT_STREAM = 'v2:event-stream';

/** Served without a token (capabilities, OAuth token endpoint). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The token needs one of these scopes; a token without any of them gets 403 naming them. */
export const RequireScopes = (...anyOf: V2Scope[]) => SetMetadata(REQUIRED_SCOPES, anyOf);

/** A send to the room in the `room` path parameter: counted by the room's flood control. */
export const FloodControlled = () => SetMetadata(FLOOD_CONTROLLED, true);

/** The body is kept as bytes (uploads), up to the file size limit rather than the JSON limit. */
export const RawBody = () => SetMetadata(RAW_BODY, true);

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
