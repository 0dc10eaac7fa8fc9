import { v2Links, type AddonInstallationView, type IssuedAddonToken } from '@app/contracts';

/** v2 shapes of installations and tokens; `base` is the public base URL without a trailing slash. */

/** 201 of POST /v2/addons. */
export function toV2CreatedAddon(i: AddonInstallationView, base: string) {
  return { id: i.id, oauth_id: i.oauthClientId, links: { self: v2Links(base).addon(i.id) } };
}

/** GET /v2/addons/{id}, and each item of GET /v2/addons. */
export function toV2Addon(i: AddonInstallationView, base: string) {
  return {
    id: i.id,
    key: i.key,
    name: i.name,
    oauth_id: i.oauthClientId,
    room_id: i.roomId,
    descriptor_url: i.descriptorUrl,
    callback_url: i.callbackUrl,
    scopes: i.scopes,
    webhooks: i.webhookIds.map((id) => ({
      id,
      links: { self: i.roomId !== null ? v2Links(base).webhook(i.roomId, id) : v2Links(base).addon(i.id) },
    })),
    installed_by: i.installedByUserId,
    created: i.created,
    links: { self: v2Links(base).addon(i.id) },
  };
}

/** 200 of POST /v2/oauth/token, as add-on frameworks read it. */
export function toV2AccessToken(t: IssuedAddonToken) {
  return {
    access_token: t.accessToken,
    expires_in: t.expiresIn,
    scope: t.scopes.join(' '),
    token_type: 'bearer',
    group_id: t.groupId,
    group_name: t.groupName,
  };
}
