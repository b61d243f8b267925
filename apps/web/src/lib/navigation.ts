/**
 * Lets modules outside React (the HTTP client, boot) move the person to another path: through
 * the router once it exists, by a full page load before that.
 */
type Navigator = (path: string) => void;

let navigator: Navigator | null = null;

export function setNavigator(next: Navigator | null): void {
  navigator = next;
}

export function navigateTo(path: string): void {
  if (navigator) navigator(path);
  else window.location.assign(path);
}
