import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CommandPipe } from '@app/common';
import { RequestOf, TestBridgeV1 } from '@app/contracts';
import { TestBridge } from './test-bridge.usecase';

/** Transport edge of the dispatcher's bridge commands: each parsed with its contract's schema, handed to its use case. */
@Controller()
export class BridgesHandlers {
  constructor(private readonly testBridge: TestBridge) {}

  @MessagePattern(TestBridgeV1.pattern)
  test(@Payload(new CommandPipe(TestBridgeV1)) c: RequestOf<typeof TestBridgeV1>) { return this.testBridge.execute(c); }
}
