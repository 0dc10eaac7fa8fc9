import { All, Controller, Res, UseFilters, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply } from 'fastify';
import { rateLimitHeaders } from '../shared/rate-limit/rate-limit';
import { withSpan } from '@app/common';
import { requestSpan } from '../shared/http-tracing';
import { RoomsClient } from '../shared/rooms-client';
import { render } from './render';
import { V1_TOKEN_STRATEGY } from './v1-token.strategy';
import { V1Call, V1CallParam } from './v1-request';
import { V1RequestGuard } from './v1-request.guard';
import { V1Filter } from './v1.filter';

const AUTH_TEST_BODY = {
  success: { code: 202, type: 'Accepted', message: 'This auth_token has access to use this method.' },
};

/**
 * Every v1 method is `/v1/<resource>/<method>`; the guards find the method, check the
 * parameters' format, the token and its rate limit; here the method's command is sent (one
 * broker round trip) and its reply presented.
 */
@Controller('v1')
@UseFilters(V1Filter)
@UseGuards(V1RequestGuard, AuthGuard(V1_TOKEN_STRATEGY))
export class V1Controller {
  constructor(private readonly rooms: RoomsClient) {}

  @All(':resource/:action')
  async call(@V1CallParam() v1: V1Call, @Res() res: FastifyReply): Promise<void> {
    if (v1.authTest) return send(res, v1, 202, AUTH_TEST_BODY);
    const actor = { tokenId: v1.token.id, label: v1.token.label || 'API', address: res.request.ip };
    const request = v1.method.request(v1.params, actor);
    const span = requestSpan(res.request);
    const reply = await this.rooms.send(v1.method.command, request, span && withSpan(span));
    send(res, v1, 200, v1.method.present(reply, request, v1.params));
  }
}

function send(res: FastifyReply, v1: V1Call, status: number, body: Record<string, unknown>): void {
  const out = render(v1.format, body);
  res.status(status).headers(rateLimitHeaders(v1.rateLimit)).type(out.contentType).send(out.body);
}
