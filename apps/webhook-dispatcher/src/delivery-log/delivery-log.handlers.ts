import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext, CommandPipe } from '@app/common';
import { DeliveryStatsV1, GetDeliveryV1, ListDeliveriesV1, RecoverDeliveriesV1, RedeliverV1, RequestOf } from '@app/contracts';
import { DeliveryStats } from './delivery-stats.usecase';
import { GetDelivery } from './get-delivery.usecase';
import { ListDeliveries } from './list-deliveries.usecase';
import { RecoverDeliveries } from './recover-deliveries.usecase';
import { Redeliver } from './redeliver.usecase';

/** Transport edge of the delivery log: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class DeliveryLogHandlers {
  constructor(
    private readonly listDeliveries: ListDeliveries,
    private readonly getDelivery: GetDelivery,
    private readonly redeliverOne: Redeliver,
    private readonly recoverDeliveries: RecoverDeliveries,
    private readonly deliveryStats: DeliveryStats,
  ) {}

  @MessagePattern(ListDeliveriesV1.pattern)
  list(@Payload(new CommandPipe(ListDeliveriesV1)) c: RequestOf<typeof ListDeliveriesV1>) { return this.listDeliveries.execute(c); }

  @MessagePattern(GetDeliveryV1.pattern)
  get(@Payload(new CommandPipe(GetDeliveryV1)) c: RequestOf<typeof GetDeliveryV1>) { return this.getDelivery.execute(c); }

  @MessagePattern(DeliveryStatsV1.pattern)
  stats(@Payload(new CommandPipe(DeliveryStatsV1)) c: RequestOf<typeof DeliveryStatsV1>) { return this.deliveryStats.execute(c); }

  @MessagePattern(RedeliverV1.pattern)
  redeliver(@Payload(new CommandPipe(RedeliverV1)) c: RequestOf<typeof RedeliverV1>, @Ctx() ctx: CommandContext) { return this.redeliverOne.execute(c, ctx.meta); }

  @MessagePattern(RecoverDeliveriesV1.pattern)
  recover(@Payload(new CommandPipe(RecoverDeliveriesV1)) c: RequestOf<typeof RecoverDeliveriesV1>, @Ctx() ctx: CommandContext) { return this.recoverDeliveries.execute(c, ctx.meta); }
}
