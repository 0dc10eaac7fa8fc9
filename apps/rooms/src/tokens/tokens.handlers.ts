import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RequestOf, ResolveTokenV1 } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { TokensService } from './tokens.service';

@Controller()
export class TokensHandlers {
  constructor(private readonly tokens: TokensService) {}

  @MessagePattern(ResolveTokenV1.pattern)
  async resolve(@Payload(new CommandPipe(ResolveTokenV1)) c: RequestOf<typeof ResolveTokenV1>) {
    return { token: await this.tokens.resolve(c.tokenHash) };
  }
}
