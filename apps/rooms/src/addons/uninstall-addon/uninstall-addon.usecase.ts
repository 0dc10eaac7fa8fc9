import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger, CommandMeta } from '@app/common';
import { commandFailure, ReplyOf, RequestOf, UninstallAddonV1 } from '@app/contracts';
import { AddonCalls } from '../addon-calls';
import { AddonRemoval } from '../addon-removal';

/**
 * Removes an installation (webhooks, client, tokens revoked), then tells the add-on with
 * `DELETE {callbackUrl}/{oauthId}`: best effort, its failure logged, the removal stands.
 */
@Injectable()
export class UninstallAddon {
  constructor(
    private readonly removal: AddonRemoval,
    private readonly calls: AddonCalls,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async execute(cmd: RequestOf<typeof UninstallAddonV1>, meta: CommandMeta): Promise<ReplyOf<typeof UninstallAddonV1>> {
    const { removed } = await this.removal.remove(cmd.id, meta, cmd.actor);
    if (!removed) throw commandFailure('not_found', 'addon_not_found', 'id', { ref: cmd.id });
    const problem = await this.calls.notifyUninstall(removed);
    if (problem) this.logger.warn({ installation: removed.id, problem }, 'add-on uninstall callback failed (the add-on is uninstalled anyway)');
    else this.logger.info({ installation: removed.id }, 'add-on uninstalled');
    return {};
  }
}
