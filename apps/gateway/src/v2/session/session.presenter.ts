import type { UserView } from '@app/contracts';
import { csrfTokenOf } from './session-cookie';

/** Who is signed in, the session's CSRF token and when the session ends (POST and GET /v2/session). */
export function toSessionBody(user: UserView, secret: string, expires: string) {
  return {
    user: { id: user.id, name: user.name, mention_name: user.mentionName, email: user.email, is_group_admin: user.isGroupAdmin },
    csrf_token: csrfTokenOf(secret),
    expires,
  };
}
