import { getWebConfig } from '@/features/about/api/get-web-config';
import { startSessionRecorder } from '@/lib/session-recorder';

/**
 * Started once the app has mounted (main.tsx), away from the first screen: the brief's session
 * recorder (lib/session-recorder.ts), from the script the deployment names.
 */
export function startRecorderAfterMount(hostname: string = window.location.hostname) {
  return startSessionRecorder({
    hostname,
    scriptUrl: async () => (await getWebConfig()).sessionRecorderUrl,
  });
}
