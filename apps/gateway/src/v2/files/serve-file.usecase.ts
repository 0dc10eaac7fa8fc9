import { Inject, Injectable } from '@nestjs/common';
import { assertValidKey, FileStorage } from '@app/common';
import { Actor, GetFileAccessV1, scopesInForce, V2_TOKEN_KINDS } from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { TokenAuthenticator } from '../../shared/auth/token-authenticator';
import { RoomsClient } from '../../shared/rooms-client';
import { actorOf } from '../http/v2-request';
import { FILE_LINKS, FILE_STORAGE } from './file-storage.token';
import { FileLinks } from './file-links';
import { servingHeaders } from './serving';
import { decideServing, FILE_NOT_FOUND } from './serving-decision';

/** What a request for a file presented: a token or the session cookie, and a signed link's parameters. */
export interface FileRequest {
  key: string;
  /** `Authorization: Bearer` or `auth_token`. */
  token?: string;
  /** The console's session cookie (a session that has ended counts as no credentials). */
  sessionSecret?: string;
  expires?: unknown;
  issued?: unknown;
  signature?: unknown;
}

/**
 * GET /files/<key>: a stored file with the headers that keep it harmless (see servingHeaders),
 * if its room exists now and, for a private room, the request may have it now: a signed link
 * that has not expired and was issued after the last change of access to the room (its
 * revocation time), or a token or session that may read the room's history (asked of the
 * rooms service at every request, so a removed member, or a room made private, is refused at
 * once; the revocation time comes in the same answer). Refusals never name the room:
 * - 404: no such file, its room was deleted, or the credentials given may not read the room;
 * - 401: a private room's file asked without credentials, by an unsigned, expired, revoked or
 *   altered link (an unknown token too, as everywhere in v2).
 */
@Injectable()
export class ServeFile {
  constructor(
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(FILE_LINKS) private readonly links: FileLinks,
    private readonly rooms: RoomsClient,
    private readonly tokens: TokenAuthenticator,
  ) {}

  async execute(req: FileRequest): Promise<{ data: Buffer; headers: Record<string, string> }> {
    const { key } = req;
    try {
      // Keys never come from clients unchecked: no traversal, no hidden or sidecar files.
      assertValidKey(key);
    } catch {
      throw notFound();
    }
    const now = Math.floor(Date.now() / 1000);
    const signed = req.expires !== undefined || req.issued !== undefined || req.signature !== undefined;
    const checked = signed ? this.links.check(key, req.expires, req.issued, req.signature, now) : { state: 'unsigned' as const, issuedAt: null };
    // Credentials are judged even beside a valid link: it may prove revoked, and they may still read the room (one round trip either way).
    const asker = await this.whoAsks(req);
    const access = await this.rooms.send(GetFileAccessV1, { key, ...(asker.actor ? { actor: asker.actor } : {}) });
    const link = { check: checked.state, issuedAt: checked.issuedAt, expiresIn: Number(req.expires) - now };
    const decision = decideServing(access, link, { ...asker, judged: asker.actor !== undefined });
    if (!decision.serve) throw new ApiError(decision.status, decision.message);
    const file = await this.storage.get(key);
    if (!file) throw notFound();
    // Files stored before names were kept download under their key's ASCII name.
    const fileName = file.fileName ?? key.slice(key.lastIndexOf('/') + 1);
    return { data: file.data, headers: { ...servingHeaders(fileName, file.contentType, file.data), 'Cache-Control': decision.cacheControl } };
  }

  /**
   * Who the credentials are: nobody when none were given (or the session cookie is one that
   * ended). A v2 token with view_messages or a session is an actor the private-room rule judges. A v1 admin token
   * reads every room's history, where v1 shows these links; a v1 notification token reads no
   * history (it has no actor to judge: only public rooms' files).
   */
  private async whoAsks(req: FileRequest): Promise<Asker> {
    if (req.token) {
      const token = await this.tokens.authenticate(req.token);
      if (!token || token.kind === 'session') throw new ApiError(401, 'Invalid OAuth session: the token is unknown, revoked or expired.');
      // A token that may not read a room's history (a room token: send_notification only) reads none of its files.
      if (V2_TOKEN_KINDS.includes(token.kind)) return scopesInForce(token).includes('view_messages') ? { credentials: true, actor: actorOf(token) } : { credentials: true };
      return { credentials: true, everyRoom: token.kind === 'admin' };
    }
    if (req.sessionSecret) {
      const token = await this.tokens.authenticate(req.sessionSecret);
      // A browser sends its stale cookie everywhere: a public file must still be served to it.
      if (token?.kind === 'session') return { credentials: true, actor: actorOf(token) };
    }
    return NOBODY;
  }
}

/** Who asks for a file: `actor` for the private-room rule, `everyRoom` for a v1 admin token. */
interface Asker {
  credentials: boolean;
  actor?: Actor;
  everyRoom?: boolean;
}

const NOBODY: Asker = { credentials: false };

const notFound = () => new ApiError(404, FILE_NOT_FOUND);
