import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { credentialSetSchema, lockEventSchema, type CredentialSet, type LockEvent } from '@latchkey/shared';
import { z } from 'zod';

const STATE_FILE_FORMAT = 1;

const persistedStateSchema = z.object({
  format: z.literal(STATE_FILE_FORMAT),
  credentialSet: credentialSetSchema.nullable(),
  outbox: z.array(lockEventSchema),
});

/**
 * What a lock keeps across reboots, like its flash would: the credential set it decides with and
 * the events the server has not acknowledged yet. Without a file it lives in memory only.
 */
export class LockMemory {
  /** Unacknowledged events in the order they happened (Map keeps insertion order). */
  private readonly outbox = new Map<string, LockEvent>();
  private credentialSetValue: CredentialSet | null = null;

  constructor(private readonly stateFile: string | null = null) {
    if (stateFile) this.load(stateFile);
  }

  get credentialSet(): CredentialSet | null {
    return this.credentialSetValue;
  }

  set credentialSet(credentialSet: CredentialSet | null) {
    this.credentialSetValue = credentialSet;
    this.save();
  }

  /** Events still waiting for events/ack, oldest first. */
  pendingEvents(): LockEvent[] {
    return [...this.outbox.values()];
  }

  get pendingCount(): number {
    return this.outbox.size;
  }

  keep(event: LockEvent): void {
    this.outbox.set(event.eventId, event);
    this.save();
  }

  /** Drops the acknowledged events; ids it no longer holds (a repeated ack) are ignored. */
  acknowledge(eventIds: readonly string[]): string[] {
    const dropped = eventIds.filter((eventId) => this.outbox.delete(eventId));
    if (dropped.length > 0) this.save();
    return dropped;
  }

  private load(stateFile: string): void {
    let text: string;
    try {
      text = readFileSync(stateFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // A corrupt file must not be silently replaced: the events in it would be lost for good.
    const state = persistedStateSchema.parse(JSON.parse(text));
    this.credentialSetValue = state.credentialSet;
    for (const event of state.outbox) this.outbox.set(event.eventId, event);
  }

  private save(): void {
    if (!this.stateFile) return;
    const state: z.infer<typeof persistedStateSchema> = {
      format: STATE_FILE_FORMAT,
      credentialSet: this.credentialSetValue,
      outbox: this.pendingEvents(),
    };
    mkdirSync(dirname(this.stateFile), { recursive: true });
    // Write then rename, so a simulator killed mid-write leaves the previous state, not half a file.
    const temporary = `${this.stateFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(state));
    renameSync(temporary, this.stateFile);
  }
}
