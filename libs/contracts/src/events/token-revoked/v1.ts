import { defineEvent } from '../envelope';

/** A token was revoked: every gateway replica drops it from its cache at once. */
export interface TokenRevokedV1Payload { tokenId: number }
export const TokenRevokedV1 = defineEvent<TokenRevokedV1Payload>('token.revoked', 1);
