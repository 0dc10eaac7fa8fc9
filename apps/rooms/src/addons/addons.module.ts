import { Module } from '@nestjs/common';
import type { RoomsConfig } from '../config';
import { ROOMS_CONFIG } from '../shared/infrastructure.module';
import { AddonCalls, addonHttpClient } from './addon-calls';
import { AddonRemoval } from './addon-removal';
import { AddonsHandlers } from './addons.handlers';
import { GetAddon } from './get-addon/get-addon.usecase';
import { InstallAddon } from './install-addon/install-addon.usecase';
import { IssueAddonToken } from './issue-token/issue-token.usecase';
import { ListAddons } from './list-addons/list-addons.usecase';
import { UninstallAddon } from './uninstall-addon/uninstall-addon.usecase';

/**
 * Add-ons: installations, their OAuth clients and tokens. AddonCalls gets the outbound client
 * made from the configuration (it closes it at shutdown). Imports no other feature module:
 * the rooms module runs AddonRemoval when a room goes, with the add-ons installed in it.
 */
@Module({
  controllers: [AddonsHandlers],
  providers: [
    { provide: AddonCalls, useFactory: (config: RoomsConfig) => new AddonCalls(addonHttpClient(config)), inject: [ROOMS_CONFIG] },
    AddonRemoval, InstallAddon, UninstallAddon, ListAddons, GetAddon, IssueAddonToken,
  ],
  exports: [AddonCalls, AddonRemoval],
})
export class AddonsModule {}
