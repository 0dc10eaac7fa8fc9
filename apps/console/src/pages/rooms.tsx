import { useEffect, useState } from 'preact/hooks';
import { allItems, api } from '../api';
import { hrefOf } from '../routes';
import { attempt, Problem, useInFlight, usePageTitle, when } from '../ui';

interface RoomItem {
  id: number;
  name: string;
  topic?: string;
  privacy: string;
  is_archived: boolean;
  last_active?: string | null;
}

export function RoomsPage() {
  usePageTitle('Rooms');
  const [rooms, setRooms] = useState<RoomItem[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [busy, whileCreating] = useInFlight();

  const load = () => allItems<RoomItem>('/v2/room?expand=items&include-archived=true&include-private=true&max-results=1000')
    .then(setRooms, (err: Error) => setProblem(err.message));
  useEffect(() => void load(), []);

  const create = (e: Event) => {
    e.preventDefault();
    return whileCreating(() => attempt(setProblem, async () => {
      const created = await api<{ id: number }>('POST', '/v2/room', { name: name.trim() });
      location.hash = hrefOf({ page: 'room', roomId: created.id });
    }));
  };

  return (
    <>
      <h1 tabIndex={-1}>Rooms</h1>
      <form class="inline" onSubmit={create}>
        <label for="room-name">Room name</label>
        <input id="room-name" required maxLength={50} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>Create room</button>
      </form>
      <Problem text={problem} />
      {rooms === null ? <p aria-busy="true">Loading rooms…</p> : rooms.length === 0 ? <p>No rooms yet.</p> : (
        <table class="list">
          <thead><tr><th scope="col">Room</th><th scope="col">Topic</th><th scope="col">Privacy</th><th scope="col">Archived</th><th scope="col">Last active</th></tr></thead>
          <tbody>
            {rooms.map((r) => (
              <tr key={r.id}>
                <td><a href={hrefOf({ page: 'room', roomId: r.id })}>{r.name}</a></td>
                <td>{r.topic ?? ''}</td>
                <td>{r.privacy}</td>
                <td>{r.is_archived ? 'yes' : 'no'}</td>
                <td>{when(r.last_active)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
