import { Controller, Get, Header, Inject, Optional, Res } from '@nestjs/common';
import { Observability, OBSERVABILITY, readinessStatus, ReadinessReport } from '@app/common';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { windowText } from '../shared/rate-limit/rate-limit';
import { SILHOUETTE_PNG } from './silhouette';

/**
 * The pages that error messages point at (the original pointed at its own docs), so that
 * a client developer following the link from a 401 or 403 learns what to do.
 */
@Controller()
export class DocsController {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @Get('docs/api/auth')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  auth(): string {
    return [
      'Authentication (version 1 API)',
      '',
      'Every request passes an API token as auth_token, in the query string or, on POST,',
      'in the form body (application/x-www-form-urlencoded).',
      '',
      'Token kinds:',
      '  admin         every method',
      '  notification  rooms/message and rooms/topic only',
      '',
      'Create one on the server: npm run --silent cli -- token create --type admin --label "my script"',
      '',
      'A missing or unknown token answers 401; a token of the wrong kind answers 403.',
      'Too many unknown tokens from one address answer 403 (see /docs/api/rate_limiting).',
      'Add auth_test=true to any request to check a token without doing anything:',
      '202 when the token may call the method, 401 otherwise.',
      '',
    ].join('\n');
  }

  /**
   * The capabilities document's `authorizationUrl` (add-on frameworks expect one beside the
   * token URL): where an add-on would send a user to grant it access (OAuth 2.0's
   * authorization-code flow), which this service does not offer. It answered 404, as if the
   * document linked to nothing. Without registered redirect URIs nothing may redirect back
   * (RFC 6749, 4.1.2.1), so the user is told here, in the OAuth error's words.
   */
  @Get('users/authorize')
  @Header('Cache-Control', 'no-store')
  authorize(@Res({ passthrough: true }) reply: FastifyReply): string {
    reply.status(400).header('Content-Type', 'text/plain; charset=utf-8');
    const base = this.config.PUBLIC_BASE_URL;
    return [
      'unsupported_response_type',
      '',
      'This service does not let add-ons ask a user for access (the OAuth 2.0 authorization-code flow).',
      `An add-on gets its tokens from its installation, with client credentials: POST ${base}/v2/oauth/token`,
      '(HTTP Basic oauthId:oauthSecret, grant_type=client_credentials).',
      'A user who wants a script to act as them creates a personal token in the console or with the CLI:',
      '  npm run --silent cli -- token create --type personal --user EMAIL',
      '',
    ].join('\n');
  }

  /** Every user's `photo_url` (see silhouette.ts): public, as chat clients load it as an <img>. */
  @Get('img/silhouette_125.png')
  @Header('Content-Type', 'image/png')
  @Header('Cache-Control', 'public, max-age=86400')
  silhouette(): Buffer {
    return SILHOUETTE_PNG;
  }

  @Get('docs/api/rate_limiting')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  rateLimiting(): string {
    const minutes = this.config.RATE_LIMIT_WINDOW_SECONDS / 60;
    return [
      'Rate limiting (version 1 API)',
      '',
      `Each token may make ${this.config.RATE_LIMIT_MAX} requests per ${minutes} minutes (fixed windows).`,
      'Every response carries:',
      '  X-RateLimit-Limit      requests allowed per window',
      '  X-RateLimit-Remaining  requests left in the current window',
      '  X-RateLimit-Reset      UNIX time (seconds) at which the window resets',
      'Past the limit, requests answer 403 until the window resets; Retry-After says in how many seconds.',
      '',
      `Unknown tokens are counted per client address: past ${this.config.AUTH_FAILURE_RATE_LIMIT_MAX} per ${windowText(this.config.AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS)},`,
      'that address\'s requests with a token answer 403 (429 in v2; with Retry-After, and that count in the',
      'X-RateLimit-* headers) until the window resets, before the token is checked; a token used',
      'in the last minute, which needs no check, is still served.',
      '',
    ].join('\n');
  }
}

/**
 * `/health` (the process answers, as before), and the same `/health/live` and `/health/ready`
 * as the METRICS_PORT listener serves, for load balancers that only reach the public port.
 */
@Controller()
export class HealthController {
  constructor(@Optional() @Inject(OBSERVABILITY) private readonly observability?: Observability) {}

  @Get('health')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('health/live')
  @Header('Cache-Control', 'no-store')
  live(): { status: 'live' } {
    return { status: 'live' };
  }

  @Get('health/ready')
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const report = this.observability ? await this.observability.readiness.report() : { status: 'not_ready' as const, checks: {} };
    reply.status(readinessStatus(report));
    return report;
  }
}
