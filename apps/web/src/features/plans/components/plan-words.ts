import { PORTAL_STANDING_LABELS, type PortalStanding } from '@latchkey/shared';

// The labels are shared with the platform console (one state, one label); the colours are the screen's.
export const STANDING: Record<PortalStanding, { label: string; color: string }> = {
  free: { label: PORTAL_STANDING_LABELS.free, color: 'gray' },
  active: { label: PORTAL_STANDING_LABELS.active, color: 'teal' },
  canceling: { label: PORTAL_STANDING_LABELS.canceling, color: 'yellow' },
  past_due: { label: PORTAL_STANDING_LABELS.past_due, color: 'orange' },
  lapsed: { label: PORTAL_STANDING_LABELS.lapsed, color: 'red' },
};
