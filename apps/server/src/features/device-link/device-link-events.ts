import type { DeviceEvent } from '@latchkey/shared';
import type { AckToRecord } from './lock-reports.repository';

// What the device link announces (base/events/domain-events.ts) for features that stand on it
// (features/webhooks): the device link imports none of them.
declare module '../../base/events/domain-events' {
  interface DomainEvents {
    /** Lock events stored for the first time (each once), inside the batch's transaction. */
    LockEventsStored: { events: { portalId: string; event: DeviceEvent }[]; now: Date };
    /**
     * Locks' credentials/ack recorded (a version confirmed, with exactly the entries it refused),
     * inside the transaction that records them; acks for a version never sent or superseded are left out.
     */
    CredentialsAcked: { acks: AckToRecord[]; now: Date };
    /**
     * A lock's record changed after a status report, its last will or the heartbeat sweep (told
     * after the write, outside any transaction); `previous` is what it was before.
     */
    LockStatusChanged: {
      portalId: string;
      deviceId: string;
      previous: { online: boolean; battery: number | null };
      now: Date;
    };
  }
}

export {};
