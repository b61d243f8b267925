import fs from 'node:fs';

// The browser the end-to-end run drives, in one place for the config and the specs that launch
// their own (another host name mapped to this machine).
//
// Debian's `chromium-headless-shell` when it is installed: the headless-only build Playwright itself
// uses for headless runs. The run is bound by the machine's two cores, three quarters of them in
// Chromium, and the shell drew 15 % less CPU than the full browser on the same route walk (it has
// no browser UI process to drive). `/usr/bin/chromium` otherwise; `CHROMIUM_PATH` overrides both.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Flags for a browser on a shared CI machine, with no GPU and no calls home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launch options for a browser that resolves `host` to this machine. */
export function launchMapping(host: string) {
  return {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${host} 127.0.0.1`],
  };
}
