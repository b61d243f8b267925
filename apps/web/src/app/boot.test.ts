import { describe, expect, it, vi } from 'vitest';
import { BootRedirect, runBoot } from './boot';

describe('runBoot', () => {
  it('runs the steps in order, then mounts', async () => {
    const order: string[] = [];
    const root = document.createElement('div');
    const outcome = await runBoot(
      ['http client setup', 'mixins', 'navigation', 'shims'].map((name) => ({
        name,
        run: () => void order.push(name),
      })),
      () => void order.push('mount'),
      { root },
    );
    expect(outcome).toBe('mounted');
    expect(order).toEqual(['http client setup', 'mixins', 'navigation', 'shims', 'mount']);
  });

  it('logs a failing step and does not mount', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const mount = vi.fn();
    const later = vi.fn();
    const root = document.createElement('div');
    const outcome = await runBoot(
      [
        { name: 'mixins', run: () => Promise.reject(new Error('no dates')) },
        { name: 'shims', run: later },
      ],
      mount,
      { root },
    );
    expect(outcome).toBe('failed');
    expect(mount).not.toHaveBeenCalled();
    expect(later).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith(expect.stringContaining('mixins'), expect.any(Error));
    expect(root.textContent).toContain('Latchkey could not start');
  });

  it('follows a redirect thrown by a step instead of mounting', async () => {
    const redirect = vi.fn();
    const mount = vi.fn();
    const outcome = await runBoot(
      [
        {
          name: 'navigation',
          run: () => {
            throw new BootRedirect('https://app.latchkey.io/');
          },
        },
      ],
      mount,
      { root: document.createElement('div'), redirect },
    );
    expect(outcome).toBe('redirected');
    expect(redirect).toHaveBeenCalledWith('https://app.latchkey.io/');
    expect(mount).not.toHaveBeenCalled();
  });
});
