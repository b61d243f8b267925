import { Code } from '@mantine/core';
import { useAbout } from '@/features/about/api/get-about';

/**
 * Where a new lock connects, for the sentence after "Add lock": the broker address the
 * installation gives its locks (GET portal/about), inline, so it reads as part of the sentence.
 */
export function LockBrokerAddress() {
  const about = useAbout();
  if (about.isPending) return <>the server&apos;s lock address (loading…)</>;
  if (about.error || !about.data.lockBrokerUrl) {
    // An external broker's locks' listener is only known to whoever runs the installation.
    return <>the lock address your installation&apos;s administrator gives you (MQTT_PUBLIC_URL)</>;
  }
  return <Code fz="sm">{about.data.lockBrokerUrl}</Code>;
}
