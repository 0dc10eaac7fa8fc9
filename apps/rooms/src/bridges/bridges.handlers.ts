import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { CreateBridgeV1, DeleteBridgeV1, EnableBridgeV1, GetBridgeV1, ListBridgesV1, PutBridgeV1, ReceiveBridgeInboundV1, RequestOf } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { CreateBridge } from './create-bridge/create-bridge.usecase';
import { DeleteBridge } from './delete-bridge/delete-bridge.usecase';
import { EnableBridge } from './enable-bridge/enable-bridge.usecase';
import { GetBridge } from './get-bridge/get-bridge.usecase';
import { ListBridges } from './list-bridges/list-bridges.usecase';
import { PutBridge } from './put-bridge/put-bridge.usecase';
import { ReceiveBridgeInbound } from './receive-inbound/receive-inbound.usecase';

/** Transport edge of bridges: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class BridgesHandlers {
  constructor(
    private readonly createBridge: CreateBridge,
    private readonly putBridge: PutBridge,
    private readonly listBridges: ListBridges,
    private readonly getBridge: GetBridge,
    private readonly deleteBridge: DeleteBridge,
    private readonly enableBridge: EnableBridge,
    private readonly receiveInbound: ReceiveBridgeInbound,
  ) {}

  @MessagePattern(CreateBridgeV1.pattern)
  create(@Payload(new CommandPipe(CreateBridgeV1)) c: RequestOf<typeof CreateBridgeV1>, @Ctx() ctx: CommandContext) { return this.createBridge.execute(c, ctx.meta); }

  @MessagePattern(PutBridgeV1.pattern)
  put(@Payload(new CommandPipe(PutBridgeV1)) c: RequestOf<typeof PutBridgeV1>, @Ctx() ctx: CommandContext) { return this.putBridge.execute(c, ctx.meta); }

  @MessagePattern(ListBridgesV1.pattern)
  list(@Payload(new CommandPipe(ListBridgesV1)) c: RequestOf<typeof ListBridgesV1>) { return this.listBridges.execute(c); }

  @MessagePattern(GetBridgeV1.pattern)
  get(@Payload(new CommandPipe(GetBridgeV1)) c: RequestOf<typeof GetBridgeV1>) { return this.getBridge.execute(c); }

  @MessagePattern(DeleteBridgeV1.pattern)
  delete(@Payload(new CommandPipe(DeleteBridgeV1)) c: RequestOf<typeof DeleteBridgeV1>, @Ctx() ctx: CommandContext) { return this.deleteBridge.execute(c, ctx.meta); }

  @MessagePattern(EnableBridgeV1.pattern)
  enable(@Payload(new CommandPipe(EnableBridgeV1)) c: RequestOf<typeof EnableBridgeV1>, @Ctx() ctx: CommandContext) { return this.enableBridge.execute(c, ctx.meta); }

  @MessagePattern(ReceiveBridgeInboundV1.pattern)
  inbound(@Payload(new CommandPipe(ReceiveBridgeInboundV1)) c: RequestOf<typeof ReceiveBridgeInboundV1>, @Ctx() ctx: CommandContext) { return this.receiveInbound.execute(c, ctx.meta); }
}
