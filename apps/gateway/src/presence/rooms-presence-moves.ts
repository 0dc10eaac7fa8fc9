import { Injectable } from '@nestjs/common';
import { EnterRoomV1, ExitRoomV1 } from '@app/contracts';
import { RoomsClient } from '../shared/rooms-client';
import type { PresenceMoves } from './console-presence';

/** The person moves themselves, as a personal token's owner does with PUT/DELETE participant. */
@Injectable()
export class RoomsPresenceMoves implements PresenceMoves {
  constructor(private readonly rooms: RoomsClient) {}

  async enter(roomId: number, userId: number): Promise<void> {
    await this.rooms.send(EnterRoomV1, { actor: { label: 'console', userId }, room: { id: roomId }, user: { id: userId } });
  }

  async exit(roomId: number, userId: number): Promise<void> {
    await this.rooms.send(ExitRoomV1, { actor: { label: 'console', userId }, room: { id: roomId }, user: { id: userId } });
  }
}
