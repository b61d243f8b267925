import { storage } from '@/lib/storage';
import { useStoredValue } from '@/lib/use-storage';
import { useSession } from '@/lib/session';

/**
 * CMS mode (the brief's client state `cms`, local-storage key `cms`; a corrupt value reads as
 * false): platform staff turn it on from the user menu, and content pages then show Edit in place
 * and the navigation its hide/show controls. For anyone else it is off whatever is stored: the
 * server refuses their edits anyway.
 */
export function useCmsMode() {
  const { data: session } = useSession();
  const staff = session?.roles.includes('superAdmin') ?? false;
  const stored = useStoredValue(() => storage.getCms());
  return {
    /** The person may use CMS mode (platform staff). */
    available: staff,
    /** CMS mode is on for this person. */
    enabled: staff && stored,
    setEnabled: (enabled: boolean) => storage.setCms(enabled),
  };
}
