import { All, Controller, Req, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Response } from 'express';
import { V1_TOKEN_STRATEGY } from '../auth/token.strategy';
import { RoomsClient } from '../rooms-client/rooms-client';
import { render } from './render';
import { V1HttpRequest } from './v1-request';
import { V1RequestGuard } from './v1-request.guard';

const AUTH_TEST_BODY = {
  success: { code: 202, type: 'Accepted', message: 'This auth_token has access to use this method.' },
};

@Controller('v1')
@UseGuards(V1RequestGuard, AuthGuard(V1_TOKEN_STRATEGY))
export class V1Controller {
  constructor(private readonly rooms: RoomsClient) {}

  @All(':resource/:action')
  async call(@Req() req: V1HttpRequest, @Res() res: Response): Promise<void> {
    const v1 = req.v1!;
    if (v1.authTest) {
      this.send(res, 202, v1.format, AUTH_TEST_BODY);
      return;
    }
    const actor = { tokenId: v1.token!.id, label: v1.token!.label || 'API' };
    const command = v1.method!.command(v1.params!, actor);
    const reply = await this.rooms.send<Record<string, unknown>>(command.pattern, command.payload);
    this.send(res, 200, v1.format, v1.method!.body ? v1.method!.body(reply) : reply);
  }

  private send(res: Response, status: number, format: 'json' | 'xml', body: Record<string, unknown>): void {
    const out = render(format, body);
    res.status(status).type(out.contentType).send(out.body);
  }
}
