import type { FastifyInstance } from 'fastify';

/** A path segment is matched whatever its length (Node's header limit bounds the URL). */
export const MAX_PARAM_LENGTH = 16 * 1024;

/** The methods a route may be declared with, in the order an Allow header lists them. */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** What this needs of Fastify: its router's lookup of a concrete path. */
export type RouteFinder = Pick<FastifyInstance, 'findRoute'>;

/**
 * The methods the router serves at this request target (its query string aside), in Allow
 * order: empty when no route matches the path under any method. HEAD is among them wherever
 * GET is (Fastify serves it for every GET route). Asked only for a would-be 404: up to six
 * router lookups.
 */
export function methodsServing(router: RouteFinder, url: string): string[] {
  const path = url.split('?', 1)[0];
  if (!routable(path)) return [];
  return ROUTE_METHODS.filter((method) => router.findRoute({ method, url: path }) !== null);
}

/**
 * For a path its router cannot read (a bad %-escape, a segment past MAX_PARAM_LENGTH),
 * find-my-way answers with Fastify's error handler under every method that has routes, not
 * with a route: such a path is served under no method.
 */
function routable(path: string): boolean {
  try {
    decodeURIComponent(path);
  } catch {
    return false;
  }
  return path.split('/').every((segment) => segment.length <= MAX_PARAM_LENGTH);
}
