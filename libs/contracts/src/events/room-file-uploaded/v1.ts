import { FileObject, RoomObject, UserObject } from '../../models';
import { defineEvent } from '../envelope';

/** A file was uploaded to a room. Webhook event: room_file_upload. */
export interface RoomFileUploadedV1Payload { room: RoomObject; sender: UserObject; file: FileObject }
export const RoomFileUploadedV1 = defineEvent<RoomFileUploadedV1Payload>('room.file-uploaded', 1);
