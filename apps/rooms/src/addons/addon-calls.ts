import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { GuardedHttpClient, HTTPS_REQUIRED, OutboundFailure } from '@app/common';
import type { RoomsConfig } from '../config';
import { uninstallUrl } from './addon-rules';

/** Descriptors are small; a larger answer is not one. */
export const DESCRIPTOR_MAX_BYTES = 256 * 1024;

/**
 * The outbound client of add-on calls (descriptor fetches, install and uninstall callbacks).
 * Plain http only within WEBHOOK_ALLOWED_NETWORKS: the install callback carries the add-on's
 * OAuth secret, and the descriptor says where it goes.
 */
export const addonHttpClient = (config: RoomsConfig) => new GuardedHttpClient({
  allowedNetworks: config.WEBHOOK_ALLOWED_NETWORKS,
  plainHttpOnlyWithinAllowedNetworks: true,
  timeoutMs: config.ADDON_HTTP_TIMEOUT_MS,
  maxResponseBytes: DESCRIPTOR_MAX_BYTES,
  userAgent: 'chat-room-service-addons/1',
});

/** `httpsRequired`: refused as plain http outside the allowed networks (the URL's rule, not the add-on's failure). */
export type Fetched = { ok: true; json: unknown } | { ok: false; problem: string; httpsRequired?: boolean };

/** Why a call may not be made at all (its scheme or address), before anything is sent. */
export type CallRefusal = { problem: string; httpsRequired: boolean };

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Why a call got no answer, as an admin reads it. */
function failureText(err: unknown): string {
  if (err instanceof OutboundFailure) {
    return err.kind === 'refused' ? `the address is not allowed: ${err.message}` : err.message;
  }
  throw err;
}

/**
 * The three calls an add-on's life makes, through the guarded client (the same SSRF rules
 * as deliveries). Each answers a problem in words, or the result; none throws for the
 * add-on's failures.
 */
@Injectable()
export class AddonCalls implements OnApplicationShutdown {
  constructor(private readonly http: GuardedHttpClient) {}

  async fetchDescriptor(url: string): Promise<Fetched> {
    let res;
    try {
      res = await this.http.request({ method: 'GET', url, headers: { accept: 'application/json' } });
    } catch (err) {
      if (err instanceof OutboundFailure && err.code === HTTPS_REQUIRED) return { ok: false, problem: err.message, httpsRequired: true };
      return { ok: false, problem: failureText(err) };
    }
    if (res.status < 200 || res.status > 299) return { ok: false, problem: `it answered HTTP ${res.status}` };
    if (res.truncated) return { ok: false, problem: `it is larger than ${DESCRIPTOR_MAX_BYTES / 1024} KiB` };
    try {
      return { ok: true, json: JSON.parse(res.body) };
    } catch {
      return { ok: false, problem: 'it is not JSON' };
    }
  }

  /**
   * Why the installation callback may not be called (plain http outside the allowed networks,
   * a refused address, by what its name resolves to now), or null: asked before anything is
   * installed. The POST checks again when it connects.
   */
  async callbackRefusal(url: string): Promise<CallRefusal | null> {
    const failure = await this.http.refusalOf(url);
    if (!failure) return null;
    return failure.code === HTTPS_REQUIRED ? { problem: failure.message, httpsRequired: true } : { problem: failureText(failure), httpsRequired: false };
  }

  /** POSTs the installation; null when the add-on accepted it (2xx). */
  async postInstallation(url: string, body: object): Promise<string | null> {
    try {
      const res = await this.http.request({ method: 'POST', url, headers: JSON_HEADERS, body: JSON.stringify(body) });
      return res.status >= 200 && res.status <= 299 ? null : `it answered HTTP ${res.status}`;
    } catch (err) {
      return failureText(err);
    }
  }

  /** `DELETE {callbackUrl}/{oauthId}` of a removed installation; null when the add-on answered 2xx. */
  async notifyUninstall(installation: { callbackUrl: string; oauthClientId: string }): Promise<string | null> {
    const url = uninstallUrl(installation.callbackUrl, installation.oauthClientId);
    try {
      const res = await this.http.request({ method: 'DELETE', url, headers: { accept: 'application/json' } });
      return res.status >= 200 && res.status <= 299 ? null : `it answered HTTP ${res.status}`;
    } catch (err) {
      return failureText(err);
    }
  }

  onApplicationShutdown(): void {
    this.http.close();
  }
}
