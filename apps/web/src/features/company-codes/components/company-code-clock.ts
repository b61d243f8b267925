import { LOCK_MODELS } from '@latchkey/shared';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { credentialClock, usePortalTimeZone, type CredentialClock } from '@/lib/zoned-time';

/**
 * The clock company codes are typed and shown on: a company code opens every keypad lock of the
 * portal, so it is theirs when they share one zone, else the portal's (credentialClock). The keypad
 * locks are read from the lock pickers' list (the first LOCK_OPTIONS_LIMIT by name), which the
 * other screens share from the cache.
 */
export function useCompanyCodeClock(): CredentialClock {
  const portalZone = usePortalTimeZone();
  const locks = useLockOptions();
  const keypadZones = (locks.data?.items ?? [])
    .filter((lock) => LOCK_MODELS[lock.model].keypad)
    .map((lock) => lock.timeZone);
  return credentialClock(keypadZones, portalZone);
}
