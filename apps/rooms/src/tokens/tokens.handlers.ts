import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RequestOf, ResolveTokenV1 } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { ResolveToken } from './resolve-token/resolve-token.usecase';

/** Transport edge of tokens: the gateways resolve them; the CLI makes and revokes them in-process. */
@Controller()
export class TokensHandlers {
  constructor(private readonly resolveToken: ResolveToken) {}

  @MessagePattern(ResolveTokenV1.pattern)
  resolve(@Payload(new CommandPipe(ResolveTokenV1)) c: RequestOf<typeof ResolveTokenV1>) { return this.resolveToken.execute(c); }
}
