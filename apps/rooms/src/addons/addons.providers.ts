import type { Provider } from '@nestjs/common';
import type { RoomsConfig } from '../config';
import { ADDON_HTTP, AddonCalls, addonHttpClient } from './addon-calls';
import { AddonRemoval } from './addon-removal';
import { AddonRepository } from './addon.repository';
import { GetAddon } from './get-addon/get-addon.usecase';
import { InstallAddon } from './install-addon/install-addon.usecase';
import { IssueAddonToken } from './issue-token/issue-token.usecase';
import { ListAddons } from './list-addons/list-addons.usecase';
import { UninstallAddon } from './uninstall-addon/uninstall-addon.usecase';

/** What the add-on handlers need: the outbound client made from the configuration, the repository, the use cases. */
export const addonProviders = (config: RoomsConfig): Provider[] => [
  { provide: ADDON_HTTP, useFactory: () => addonHttpClient(config) },
  AddonRepository, AddonCalls, AddonRemoval, InstallAddon, UninstallAddon, ListAddons, GetAddon, IssueAddonToken,
];
