import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { GetAddonV1, InstallAddonV1, IssueAddonTokenV1, ListAddonsV1, RequestOf, UninstallAddonV1 } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { GetAddon } from './get-addon/get-addon.usecase';
import { InstallAddon } from './install-addon/install-addon.usecase';
import { IssueAddonToken } from './issue-token/issue-token.usecase';
import { ListAddons } from './list-addons/list-addons.usecase';
import { UninstallAddon } from './uninstall-addon/uninstall-addon.usecase';

/** Transport edge of add-ons: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class AddonsHandlers {
  constructor(
    private readonly installAddon: InstallAddon,
    private readonly uninstallAddon: UninstallAddon,
    private readonly listAddons: ListAddons,
    private readonly getAddon: GetAddon,
    private readonly issueToken: IssueAddonToken,
  ) {}

  @MessagePattern(InstallAddonV1.pattern)
  install(@Payload(new CommandPipe(InstallAddonV1)) c: RequestOf<typeof InstallAddonV1>, @Ctx() ctx: CommandContext) { return this.installAddon.execute(c, ctx.meta); }

  @MessagePattern(UninstallAddonV1.pattern)
  uninstall(@Payload(new CommandPipe(UninstallAddonV1)) c: RequestOf<typeof UninstallAddonV1>, @Ctx() ctx: CommandContext) { return this.uninstallAddon.execute(c, ctx.meta); }

  @MessagePattern(ListAddonsV1.pattern)
  list(@Payload(new CommandPipe(ListAddonsV1)) c: RequestOf<typeof ListAddonsV1>) { return this.listAddons.execute(c); }

  @MessagePattern(GetAddonV1.pattern)
  get(@Payload(new CommandPipe(GetAddonV1)) c: RequestOf<typeof GetAddonV1>) { return this.getAddon.execute(c); }

  @MessagePattern(IssueAddonTokenV1.pattern)
  token(@Payload(new CommandPipe(IssueAddonTokenV1)) c: RequestOf<typeof IssueAddonTokenV1>) { return this.issueToken.execute(c); }
}
