import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FEATURE_FLAG_IDS } from '@latchkey/shared';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

// The frame's parts of the platform console (issue 20, item 1): "Support is acting here" for the
// portal's admins, and the navigation and screens of a feature switched off.

const features = (enabled: string[]) => ({
  portalId: 'portal-1',
  enabled,
  flags: [],
});
const twoFactor = () => json({ enabled: false, otpauthUri: null, qrCode: null, recoveryCodesLeft: 0 });

describe('the platform console in the app frame', () => {
  it("tells a portal's admin that support is acting in their portal, and until when", async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/settings', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET auth/twoFactor': twoFactor,
      'GET system/features': () => json(features([...FEATURE_FLAG_IDS])),
      'GET portal/supportSession': () =>
        json({
          session: {
            _id: 's1',
            staff: { _id: 'staff-1', email: 'staff@latchkey.dev' },
            person: { _id: 'user-9', email: 'owner@example.com' },
            startedAt: '2030-01-01T14:00:00.000Z',
            expiresAt: '2030-01-01T14:30:00.000Z',
          },
        }),
    });
    const banner = await screen.findByRole('region', { name: 'Support is acting here' });
    expect(banner).toHaveTextContent(
      'staff@latchkey.dev of platform support is acting in this portal as owner@example.com, until',
    );
    expect(banner).toHaveTextContent(/until \d\d:\d\d/);
  });

  it('hides a switched-off feature from the navigation and explains its screen', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/orders', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET system/features': () => json(features(['rentals', 'support', 'reports'])),
      'GET portal/supportSession': () => json({ session: null }),
    });
    expect(await screen.findByRole('heading', { name: 'This feature is switched off' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Shop' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Listings' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Support is acting here' })).not.toBeInTheDocument();
  });
});
