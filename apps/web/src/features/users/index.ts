// The users feature's public face: a user's status badge, shown on operations' view of a
// customer's users as on the customer's own list.
export { UserStatusBadge } from './components/status-badge';
