import { PipeTransform } from '@nestjs/common';
import { CommandDefinition, commandFailure } from '@app/contracts';

/**
 * Parses a received command with its contract's schema: no process boundary is trusted.
 * A violation answers `invalid` naming the field (in the command's terms) and the rule.
 * Every service that serves a command queue (rooms, the webhook dispatcher) reads with it.
 */
export class CommandPipe<Req> implements PipeTransform<unknown, Req> {
  constructor(private readonly command: CommandDefinition<Req, unknown>) {}

  transform(value: unknown): Req {
    const result = this.command.schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = issue?.path.filter((p) => typeof p === 'string')[0] as string | undefined;
    throw commandFailure('invalid', 'rule', field, { problem: issue?.message ?? 'is invalid' });
  }
}
