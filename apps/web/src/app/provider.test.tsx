import { notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from './provider';

describe('AppProvider notifications', () => {
  afterEach(() => act(() => notifications.clean()));

  it('loads the notifications layer with the first notification, not before', async () => {
    const { container } = render(
      <AppProvider env="test">
        <p>page</p>
      </AppProvider>,
    );
    // Nothing of the layer in a first load (it is a chunk of its own, fetched on demand).
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    expect(container).toHaveTextContent('page');

    act(() => {
      notifications.show({ title: 'Saved', message: 'Your changes are kept.' });
    });
    expect(await screen.findByText('Your changes are kept.')).toBeInTheDocument();
  });

  it('shows a notification raised before the app was mounted (the store kept it)', async () => {
    act(() => {
      notifications.show({ message: 'Back in your own portal' });
    });
    render(
      <AppProvider env="test">
        <p>page</p>
      </AppProvider>,
    );
    expect(await screen.findByText('Back in your own portal')).toBeInTheDocument();
  });
});
