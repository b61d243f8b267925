import type { PortalStanding } from '@latchkey/shared';

export const STANDING: Record<PortalStanding, { label: string; color: string }> = {
  free: { label: 'Free plan', color: 'gray' },
  active: { label: 'Paid up', color: 'teal' },
  canceling: { label: 'Ends at the end of the period', color: 'yellow' },
  past_due: { label: 'Payment failing', color: 'orange' },
  lapsed: { label: 'Not paid', color: 'red' },
};
