import { notifications } from '@mantine/notifications';

let hostWanted = false;
const hostListeners = new Set<() => void>();

/** The app mounts the toast container the first time a toast is shown. */
export function onFirstNotification(listener: () => void): () => void {
  if (hostWanted) listener();
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

function show(message: string, color: string, autoClose: number) {
  if (!hostWanted) {
    hostWanted = true;
    for (const listener of hostListeners) listener();
  }
  notifications.show({
    message,
    // A failure's head and the server's lines arrive as lines of one text: keep them apart.
    styles: { description: { whiteSpace: 'pre-line' } },
    color,
    withBorder: true,
    autoClose,
    closeButtonProps: { 'aria-label': 'Dismiss notification' },
  });
}

/** Toasts for the message catalogue; one place so tests and screens agree on the wording. */
export const notify = {
  success: (message: string) => show(message, 'teal', 4000),
  error: (message: string) => show(message, 'red', 8000),
  info: (message: string) => show(message, 'blue', 4000),
};
