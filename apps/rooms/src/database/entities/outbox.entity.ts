import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { EventEnvelope } from '@app/contracts';

@Entity('outbox')
export class OutboxEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'event_id', type: 'uuid' }) eventId: string;
  @Column({ type: 'varchar', name: 'routing_key' }) routingKey: string;
  @Column({ type: 'jsonb' }) envelope: EventEnvelope;
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
  @Column({ type: 'integer' }) attempts: number;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError: string | null;
}
