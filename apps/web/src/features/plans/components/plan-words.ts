import type { PlanFeature, PortalStanding } from '@latchkey/shared';

export const FEATURE_WORDS: Record<PlanFeature, string> = {
  reports: 'Reports on locks and people',
  rentals: 'Rentals and guest stays',
  apiAccess: 'API access',
  prioritySupport: 'Priority support',
};

export const STANDING: Record<PortalStanding, { label: string; color: string }> = {
  free: { label: 'Free plan', color: 'gray' },
  active: { label: 'Paid up', color: 'teal' },
  canceling: { label: 'Ends at the end of the period', color: 'yellow' },
  past_due: { label: 'Payment failing', color: 'orange' },
  lapsed: { label: 'Not paid', color: 'red' },
};
