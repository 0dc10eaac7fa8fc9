import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('messages')
export class MessageEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ type: 'integer', name: 'room_id' }) roomId: number;
  @Column({ type: 'varchar' }) type: 'message' | 'notification' | 'topic' | 'guest_access';
  @Column({ name: 'from_label', type: 'varchar', nullable: true }) fromLabel: string | null;
  @Column({ name: 'user_id', type: 'integer', nullable: true }) userId: number | null;
  @Column({ type: 'varchar' }) body: string;
  @Column({ type: 'varchar', name: 'message_format' }) messageFormat: 'html' | 'text';
  @Column({ type: 'varchar', nullable: true }) color: string | null;
  @Column({ type: 'boolean' }) notify: boolean;
  @Column({ name: 'mention_user_ids', type: 'int', array: true }) mentionUserIds: number[];
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
