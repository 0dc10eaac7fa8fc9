import { useEffect, useState } from 'preact/hooks';
import { LIMITS } from '@app/contracts/models/limits';
import { allItems, api, ApiError, Session } from '../api';
import { hrefOf } from '../routes';
import { attempt, Problem, Status, useConfirm, useInFlight, usePageTitle } from '../ui';

interface UserItem { id: number; name: string; mention_name: string }

/** GET /v2/room/{room}: the fields a PUT takes back. */
interface Room {
  id: number;
  name: string;
  topic: string;
  privacy: 'public' | 'private';
  is_archived: boolean;
  is_guest_accessible: boolean;
  owner: UserItem | null;
  participants: UserItem[];
}

/**
 * What deleting a room does (apps/rooms DeleteRoom): everyone in it exits, its webhooks and
 * bridges get its room_exit and room_deleted and are deleted, the add-ons installed in it are
 * uninstalled (their tokens and the room's own revoked), its files stop being served, and its
 * messages go with the room.
 */
const ON_DELETE = [
  'Its messages and shared files are deleted.',
  'Everyone in it leaves it.',
  'Its webhooks and bridges are told that it was deleted, then deleted.',
  'The add-ons installed in it are uninstalled, and its room tokens stop working.',
  'This cannot be undone.',
];

const ON_ARCHIVE = [
  'Nobody can post to it (messages, notifications, files) until it is unarchived.',
  'Its history stays readable, and it is left out of room lists that do not ask for archived rooms.',
];

const ON_PRIVATE = [
  'Only its members (and group admins) see it and its history; anyone else reading it live is cut off.',
  'Webhooks and bridges made by people who are not members are disabled.',
];

/** A room's settings (#/rooms/{id}/settings): its owner's and group admins' to change. */
export function RoomSettingsPage({ roomId, session }: { roomId: number; session: Session }) {
  const [room, setRoom] = useState<Room | null>(null);
  const [gone, setGone] = useState<string | null>(null);
  const [people, setPeople] = useState<UserItem[]>([]);
  const [name, setName] = useState('');
  const [privacy, setPrivacy] = useState<'public' | 'private'>('public');
  const [owner, setOwner] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, whileChanging] = useInFlight();
  const [dialog, confirm] = useConfirm();
  usePageTitle(room ? `Settings of ${room.name}` : 'Room settings');

  const show = (r: Room) => {
    setRoom(r);
    setName(r.name);
    setPrivacy(r.privacy);
    setOwner(r.owner ? String(r.owner.id) : '');
  };
  const load = () => api<Room>('GET', `/v2/room/${roomId}`).then(show);
  useEffect(() => {
    load().catch((err: Error) => (err instanceof ApiError && err.status === 404 ? setGone(err.message) : setProblem(err.message)));
    allItems<UserItem>('/v2/user?max-results=1000').then((u) => setPeople(u.sort((a, b) => a.name.localeCompare(b.name))), () => undefined);
  }, [roomId]);

  if (gone) {
    return <><h1 tabIndex={-1}>Room not found</h1><p role="alert">{gone}</p><p><a href={hrefOf({ page: 'rooms' })}>Rooms</a></p></>;
  }
  if (!room) return <><h1 tabIndex={-1}>Room settings</h1><Problem text={problem} />{!problem && <p aria-busy="true">Loading the room…</p>}</>;

  const mayChange = session.user.is_group_admin || room.owner?.id === session.user.id;
  // The owner's list: everyone, and the owner as they are even when the list could not be read.
  const choices = room.owner && !people.some((p) => p.id === room.owner!.id) ? [room.owner, ...people] : people;
  const ownerName = (id: string) => choices.find((p) => String(p.id) === id)?.name ?? `user ${id}`;

  // Buttons say they are busy by aria-disabled (useInFlight is the guard), so that a confirmation
  // closing can give the focus back to the one that asked.

  /** PUT takes the whole room: every field as it is, with the changes. */
  const put = (changes: Partial<Pick<Room, 'name' | 'privacy' | 'is_archived'>> & { ownerId?: number }) => api('PUT', `/v2/room/${room.id}`, {
    name: changes.name ?? room.name,
    privacy: changes.privacy ?? room.privacy,
    topic: room.topic,
    is_archived: changes.is_archived ?? room.is_archived,
    is_guest_accessible: room.is_guest_accessible,
    ...(changes.ownerId !== undefined ? { owner: { id: changes.ownerId } } : room.owner ? { owner: { id: room.owner.id } } : {}),
  });

  const save = (e: Event) => {
    e.preventDefault();
    return whileChanging(() => attempt(setProblem, async () => {
      setStatus(null);
      const ownerChanged = owner !== '' && owner !== String(room.owner?.id ?? '');
      const details: string[] = [];
      if (privacy === 'private' && room.privacy !== 'private') details.push(...ON_PRIVATE);
      if (ownerChanged && room.owner?.id === session.user.id && !session.user.is_group_admin) {
        details.push(`You will no longer own it, nor change its settings: ${ownerName(owner)} will.`);
      }
      if (details.length > 0) {
        const question = privacy === 'private' && room.privacy !== 'private' ? `Make the room ${room.name} private?` : `Make ${ownerName(owner)} the owner of ${room.name}?`;
        if (!await confirm({ question, details })) return;
      }
      await put({ name: name.trim(), privacy, ...(ownerChanged ? { ownerId: Number(owner) } : {}) });
      await load();
      setStatus('Settings saved.');
    }));
  };

  const archive = (archived: boolean) => whileChanging(() => attempt(setProblem, async () => {
    setStatus(null);
    if (archived && !await confirm({ question: `Archive the room ${room.name}?`, details: ON_ARCHIVE })) return;
    await put({ is_archived: archived });
    await load();
    setStatus(archived ? 'The room is archived.' : 'The room is open again.');
  }));

  const remove = () => whileChanging(() => attempt(setProblem, async () => {
    setStatus(null);
    if (!await confirm({ question: `Delete the room ${room.name}? Its history, webhooks and bridges go with it.`, details: ON_DELETE })) return;
    await api('DELETE', `/v2/room/${room.id}`);
    location.hash = hrefOf({ page: 'rooms' });
  }));

  return (
    <>
      <h1 tabIndex={-1}>Settings of {room.name}</h1>
      <p><a href={hrefOf({ page: 'room', roomId: room.id })}>Back to {room.name}</a></p>
      {!mayChange && <p>Only the room's owner{room.owner ? ` (${room.owner.name})` : ''} and group admins can change these settings.</p>}
      <Problem text={problem} />
      <Status text={status} />
      <form class="stack room-settings" onSubmit={save} aria-labelledby="room-settings-heading">
        <h2 id="room-settings-heading">Name, privacy and owner</h2>
        <fieldset class="plain" disabled={!mayChange}>
          <label for="room-settings-name">Name</label>
          <input id="room-settings-name" required maxLength={LIMITS.roomNameMaxLength} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </fieldset>
        <fieldset disabled={!mayChange}>
          <legend>Privacy</legend>
          <label class="check"><input type="radio" name="room-privacy" checked={privacy === 'public'} onChange={() => setPrivacy('public')} aria-describedby="privacy-public-note" />Public</label>
          <span id="privacy-public-note" class="muted">Anyone in the group can find it, read it and join.</span>
          <label class="check"><input type="radio" name="room-privacy" checked={privacy === 'private'} onChange={() => setPrivacy('private')} aria-describedby="privacy-private-note" />Private</label>
          <span id="privacy-private-note" class="muted">Only its members and group admins.</span>
        </fieldset>
        <fieldset class="plain" disabled={!mayChange}>
          <label for="room-settings-owner">Owner</label>
          <select id="room-settings-owner" value={owner} onChange={(e) => setOwner(e.currentTarget.value)}>
            {!room.owner && <option value="">Nobody</option>}
            {choices.map((p) => <option key={p.id} value={String(p.id)}>{p.name} (@{p.mention_name})</option>)}
          </select>
        </fieldset>
        {mayChange && <button type="submit" aria-disabled={busy ? 'true' : undefined}>Save settings</button>}
      </form>
      {mayChange && (
        <section class="danger-zone" aria-labelledby="room-lifecycle-heading">
          <h2 id="room-lifecycle-heading">Archive or delete</h2>
          <p>{room.is_archived ? 'The room is archived: nobody can post to it.' : 'An archived room keeps its history but takes no new messages.'}</p>
          <p class="form-actions">
            {room.is_archived
              ? <button type="button" class="secondary" aria-disabled={busy ? 'true' : undefined} onClick={() => archive(false)}>Unarchive room</button>
              : <button type="button" class="secondary" aria-disabled={busy ? 'true' : undefined} onClick={() => archive(true)}>Archive room</button>}
            <button type="button" class="danger" aria-disabled={busy ? 'true' : undefined} onClick={remove}>Delete room</button>
          </p>
        </section>
      )}
      {dialog}
    </>
  );
}
