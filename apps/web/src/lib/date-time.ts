import { formatDate } from '@kestrel/domain';

/** An ISO instant as the day and the UTC time of day: '28th Nov 2026 19:05'. */
export const formatDateTime = (iso: string): string => `${formatDate(iso)} ${iso.slice(11, 16)}`;
