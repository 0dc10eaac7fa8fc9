import { FileObject, RoomObject, UserObject } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A file was uploaded to a room. Webhook event: room_file_upload. */
export interface RoomFileUploadedV2Payload { room: RoomObject; sender: UserObject; file: FileObject }
export const RoomFileUploadedV2 = defineRoomEvent<RoomFileUploadedV2Payload>('room.file-uploaded', 2);
