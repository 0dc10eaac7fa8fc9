import type { V2Scope } from '../tokens/resolve-token';

/** An installed add-on as the API shows it: never its OAuth secret. */
export interface AddonInstallationView {
  id: number;
  /** The descriptor's `key`. */
  key: string;
  name: string;
  /** The descriptor URL the installer gave. */
  descriptorUrl: string;
  callbackUrl: string;
  /** The room it was installed in; null when installed group-wide (every room's events). */
  roomId: number | null;
  /** The OAuth client id (`oauthId`) the add-on requests its tokens with. */
  oauthClientId: string;
  /** The scopes its descriptor asked for: the most its tokens may carry. */
  scopes: V2Scope[];
  /** The webhooks its descriptor declared. */
  webhookIds: number[];
  installedByUserId: number | null;
  created: string;
}
