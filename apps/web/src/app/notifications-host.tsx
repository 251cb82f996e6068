import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Bottom right: at the top, toasts covered the header's customer name and account menu. */
export default function NotificationsHost() {
  return <Notifications position="bottom-right" limit={4} />;
}
