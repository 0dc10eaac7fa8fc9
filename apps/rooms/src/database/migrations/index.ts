import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { HotPath1763800000000 } from './1763800000000-hot-path';
import { V2Api1764000000000 } from './1764000000000-v2-api';
import { Webhooks1764100000000 } from './1764100000000-webhooks';
import { Addons1764200000000 } from './1764200000000-addons';
import { RegistrationsVersion1764400000000 } from './1764400000000-registrations-version';
import { WebhookHealth1764500000000 } from './1764500000000-webhook-health';
import { RoomOrder1764600000000 } from './1764600000000-room-order';
import { WebhookDeliveryMode1764650000000 } from './1764650000000-webhook-delivery-mode';
import { OrderedEventRouting1764700000000 } from './1764700000000-ordered-event-routing';
import { RoomEvents1764800000000 } from './1764800000000-room-events';
import { Sessions1764900000000 } from './1764900000000-sessions';
import { OutboxTraceContext1765100000000 } from './1765100000000-outbox-trace-context';
import { RegistrationChanges1765200000000 } from './1765200000000-registration-changes';
import { RoomFiles1766100000000 } from './1766100000000-room-files';
import { AuditLog1766400000000 } from './1766400000000-audit-log';
import { SecretsAtRest1766000000000 } from './1766000000000-secrets-at-rest';
import { WebhookKeysPerAddOn1766200000000 } from './1766200000000-webhook-keys-per-addon';
import { Bridges1766500000000 } from './1766500000000-bridges';
import { ReadMarkers1766600000000 } from './1766600000000-read-markers';
import { Invitations1766700000000 } from './1766700000000-invitations';
import { FileLinkRevocation1766800000000 } from './1766800000000-file-link-revocation';
import { SealedWebhookUrls1766850000000 } from './1766850000000-sealed-webhook-urls';

/** Every migration, in order. New ones are appended here. */
export const MIGRATIONS = [InitialSchema1763700000000, HotPath1763800000000, V2Api1764000000000, Webhooks1764100000000, Addons1764200000000,
  RegistrationsVersion1764400000000, WebhookHealth1764500000000, RoomOrder1764600000000, WebhookDeliveryMode1764650000000,
  OrderedEventRouting1764700000000, RoomEvents1764800000000, Sessions1764900000000, OutboxTraceContext1765100000000,
  RegistrationChanges1765200000000, SecretsAtRest1766000000000, RoomFiles1766100000000, WebhookKeysPerAddOn1766200000000, AuditLog1766400000000,
  Bridges1766500000000, ReadMarkers1766600000000, Invitations1766700000000, FileLinkRevocation1766800000000,
  SealedWebhookUrls1766850000000];
