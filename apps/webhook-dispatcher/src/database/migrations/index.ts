import { Deliveries1764200000000 } from './1764200000000-deliveries';
import { DeliveryRetention1764300000000 } from './1764300000000-delivery-retention';
import { DeliveryLog1764500000000 } from './1764500000000-delivery-log';
import { OrderedDeliveries1764650000000 } from './1764650000000-ordered-deliveries';
import { UnfinishedDeliveries1765000000000 } from './1765000000000-unfinished-deliveries';
import { DeliveryTrace1765100000000 } from './1765100000000-delivery-trace';
import { AttemptRepeats1765200000000 } from './1765200000000-attempt-repeats';
import { ParkedUntil1765300000000 } from './1765300000000-parked-until';
import { ScheduleOffset1765400000000 } from './1765400000000-schedule-offset';
import { RegistrationsVersion1765500000000 } from './1765500000000-registrations-version';
import { PartsDone1766600000000 } from './1766600000000-parts-done';

/** Every migration of the dispatcher's tables, in order (tracked in `dispatcher_migrations`). */
export const DISPATCHER_MIGRATIONS = [Deliveries1764200000000, DeliveryRetention1764300000000, DeliveryLog1764500000000, OrderedDeliveries1764650000000, UnfinishedDeliveries1765000000000,
  DeliveryTrace1765100000000, AttemptRepeats1765200000000, ParkedUntil1765300000000, ScheduleOffset1765400000000,
  RegistrationsVersion1765500000000, PartsDone1766600000000];
