import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const devices = [
  // Offline for two hours: the list says it in the one wording every screen uses.
  deviceFixture({ online: false, lastSeenAt: new Date(Date.now() - 2 * 3_600_000).toISOString() }),
  deviceFixture({
    _id: 'device-2',
    name: 'Back gate',
    model: 'generic-nokeypad',
    serial: null,
    battery: 12,
    online: false,
    lastSeenAt: null,
  }),
];

function setup(items = devices) {
  storage.setAuthToken(validToken());
  return renderApp('/app/device', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/devices': (call) => {
      const search = new URL(call.url, 'http://x').searchParams.get('search');
      const found = search ? items.filter((d) => d.name.toLowerCase().includes(search.toLowerCase())) : items;
      return json({ items: found, total: found.length });
    },
    'GET portal/device/battery/low': () => json(items.filter((d) => d.battery !== null && d.battery <= 20)),
  });
}

describe('DevicesPage', () => {
  it('lists the locks with model, battery and last contact', async () => {
    const { calls } = setup();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    expect(within(rows[0]!).getAllByText('Keypad code lock').length).toBeGreaterThan(0);
    expect(within(rows[0]!).getByText('80%')).toBeInTheDocument();
    expect(within(rows[0]!).getAllByText('Offline, last seen 2 hours ago').length).toBeGreaterThan(0);
    expect(within(rows[1]!).getAllByText('Never connected').length).toBeGreaterThan(0);
    expect(within(rows[1]!).getByText('Low')).toBeInTheDocument();
    expect(await screen.findByText('1 lock needs new batteries')).toBeInTheDocument();
    const list = calls.find((c) => c.path === 'portal/devices')!;
    expect(list.url).toContain('limit=25');
    expect(list.url).toContain('sortBy=name');
  });

  it('searches on the server once typing pauses, and sorts by a header', async () => {
    const { calls, router } = setup();
    const user = setupUser();
    await screen.findByRole('table');
    await user.type(screen.getByRole('searchbox', { name: 'Search locks' }), 'back');
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    const searches = calls.filter((c) => c.path === 'portal/devices' && c.url.includes('search='));
    // Debounced: one call for the whole word, not one per letter.
    expect(searches.map((c) => new URL(c.url, 'http://x').searchParams.get('search'))).toEqual(['back']);
    expect(router.state.location.search).toContain('search=back');
    expect(screen.getByRole('link', { name: 'Back gate' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Battery' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('sortBy=battery') && c.url.includes('descending=false'))).toBe(
        true,
      ),
    );
    expect(screen.getByRole('columnheader', { name: 'Battery' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('filters by model on the server, keeps the choice in the address, and clears it', async () => {
    const { calls, router } = setup();
    const user = setupUser();
    await screen.findByRole('table');
    await user.click(screen.getByLabelText('Model', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Keypad code lock' }));
    await waitFor(() => expect(router.state.location.search).toContain('model=generic-codelock'));
    const lastFilter = () => {
      const params = new URL(calls.filter((c) => c.path === 'portal/devices').at(-1)!.url, 'http://x')
        .searchParams;
      return [params.get('filterBy'), params.get('filterValue')];
    };
    await waitFor(() => expect(lastFilter()).toEqual(['model', 'generic-codelock']));

    await user.click(screen.getByRole('button', { name: 'Clear model' }));
    await waitFor(() => expect(router.state.location.search).not.toContain('model='));
    expect(screen.getByLabelText('Model', { selector: 'input' })).toHaveValue('');
  }, 15_000);

  it('says when nothing matches, and clears both the search and the model filter', async () => {
    const { router } = setup();
    await screen.findByRole('table');
    await router.navigate('/app/device?search=zzz&model=generic-codelock');
    expect(await screen.findByRole('heading', { name: 'No locks match' })).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: 'Show all locks' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('searchbox', { name: 'Search locks' })).toHaveValue('');
  });

  it('invites adding the first lock when there is none', async () => {
    setup([]);
    expect(await screen.findByRole('heading', { name: 'No locks yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add lock' })).toHaveLength(2);
  });

  it('adds a lock and shows its secret once', async () => {
    storage.setAuthToken(validToken());
    const created = deviceFixture({ _id: 'device-9', name: 'Garage', model: 'latchkey-sim', serial: null });
    const { calls, router } = renderApp('/app/device', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/devices': () => json({ items: [], total: 0 }),
      'GET portal/device/battery/low': () => json([]),
      'POST portal/device/new': () => json({ device: created, deviceSecret: 's3cr3t-XYZ' }, 201),
      'GET portal/about': () => json(about('mqtt://locks.example.com:1883')),
    });
    const user = setupUser();
    await user.click((await screen.findAllByRole('button', { name: 'Add lock' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add lock' });

    // Nothing is sent until the form is complete.
    await user.click(within(dialog).getByRole('button', { name: 'Add lock' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText("Choose the lock's model")).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Name/), 'Garage');
    // Escape on a filled form asks first (FormModal); "Keep editing" keeps it.
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Garage');
    await user.click(within(dialog).getByRole('combobox', { name: /^Model/ }));
    await user.click(await screen.findByRole('option', { name: 'Latchkey simulated lock' }));
    // The portal's time zone is the default.
    expect(within(dialog).getByRole('combobox', { name: /^Time zone/ })).toHaveValue('America/New_York');
    await user.click(within(dialog).getByRole('button', { name: 'Add lock' }));

    const secret = await screen.findByRole('dialog', { name: 'Connect Garage' });
    expect(calls.find((c) => c.path === 'portal/device/new')!.body).toEqual({
      name: 'Garage',
      model: 'latchkey-sim',
      timeZone: 'America/New_York',
    });
    expect(within(secret).getByText('s3cr3t-XYZ')).toBeInTheDocument();
    expect(within(secret).getByText(/you will not see it again/i)).toBeInTheDocument();
    expect(within(secret).getByRole('button', { name: 'Copy device secret' })).toBeInTheDocument();
    expect(within(secret).getByText('device-9')).toBeInTheDocument();
    // Which server the installer points the lock at.
    expect(await within(secret).findByText('mqtt://locks.example.com:1883')).toBeInTheDocument();
    expect(secret).toHaveTextContent(
      'connects to mqtt://locks.example.com:1883 with its lock ID device-9 and this secret',
    );

    await user.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText('s3cr3t-XYZ')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/app/device');
  });

  it('says when the installation has not named the address locks connect to', async () => {
    storage.setAuthToken(validToken());
    const created = deviceFixture({ _id: 'device-9', name: 'Garage', model: 'latchkey-sim', serial: null });
    renderApp('/app/device', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/devices': () => json({ items: [], total: 0 }),
      'GET portal/device/battery/low': () => json([]),
      'POST portal/device/new': () => json({ device: created, deviceSecret: 's3cr3t-XYZ' }, 201),
      'GET portal/about': () => json(about(null)),
    });
    const user = setupUser();
    await user.click((await screen.findAllByRole('button', { name: 'Add lock' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add lock' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Garage');
    await user.click(within(dialog).getByRole('combobox', { name: /^Model/ }));
    await user.click(await screen.findByRole('option', { name: 'Latchkey simulated lock' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add lock' }));
    const secret = await screen.findByRole('dialog', { name: 'Connect Garage' });
    expect(
      await within(secret).findByText(/the lock address your installation's administrator gives you/),
    ).toBeInTheDocument();
  });
});

/** GET portal/about, with the broker address locks are given. */
function about(lockBrokerUrl: string | null) {
  return {
    name: 'Latchkey',
    version: '1.0.0',
    licence: 'MIT',
    database: 'sqlite',
    node: 'v20.19.0',
    startedAt: '2026-01-01T00:00:00.000Z',
    apiDocs: '/api3/docs',
    lockBrokerUrl,
  };
}
