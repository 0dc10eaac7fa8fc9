import { z } from 'zod';
import { absoluteHttpUrlProblem } from '../../rules/http-url';
import { text } from '../../rules/text';
import { idSchema } from '../../rules/ids';

/** Why a value is not an absolute http(s) URL an add-on may be reached at, or null. */
export function addonUrlProblem(v: string): string | null {
  return absoluteHttpUrlProblem(v) ?? (v.length > 2000 ? 'must be at most 2,000 characters' : null);
}

/** The rules of the add-on commands' fields, written once (the edge and the rooms service parse with them). */
export const addonField = {
  /** Where the add-on serves its descriptor. */
  descriptorUrl: text(addonUrlProblem),
  installationId: idSchema,
  oauthClientId: text((v) => (v.length < 1 || v.length > 100 ? 'must be 1 to 100 characters' : null)),
};
