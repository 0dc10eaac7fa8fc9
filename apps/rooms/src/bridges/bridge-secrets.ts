import { Injectable } from '@nestjs/common';
import { SecretBox, secretPurpose } from '@app/common';
import { BridgeChangeReply } from '@app/contracts';

/**
 * Sealing a bridge's secrets for its row, and keeping a change's reply (which may carry a
 * new inbound key, shown once) for a redelivered command without the key in clear in the
 * command log: the same care RegisterWebhook takes of a webhook's secret.
 */
@Injectable()
export class BridgeSecrets {
  constructor(private readonly box: SecretBox) {}

  matrixToken(id: number, clear: string): string {
    return this.box.seal(clear, secretPurpose.bridgeToken(id));
  }

  inbound(id: number, what: 'token' | 'hmac_secret', clear: string): string {
    return this.box.seal(clear, secretPurpose.bridgeInbound(id, what));
  }

  /** An inbound secret as stored (sealed), opened: only the inbound endpoint checks requests with it. */
  openInbound(id: number, what: 'token' | 'hmac_secret', sealed: string | null): string | null {
    return sealed === null ? null : this.box.reveal(sealed, secretPurpose.bridgeInbound(id, what));
  }

  signing(id: number, clear: string): string {
    return this.box.seal(clear, secretPurpose.webhook(id));
  }

  replyStorage(): { storedReply: (r: BridgeChangeReply) => unknown; fromStored: (s: unknown) => BridgeChangeReply } {
    return {
      storedReply: (r) => (r.inboundKey === undefined ? r : { ...r, inboundKey: this.box.seal(r.inboundKey, secretPurpose.bridgeInboundKey(r.bridge.id)) }),
      fromStored: (s) => {
        const r = s as BridgeChangeReply;
        return r.inboundKey === undefined ? r : { ...r, inboundKey: this.box.reveal(r.inboundKey, secretPurpose.bridgeInboundKey(r.bridge.id)) };
      },
    };
  }
}
