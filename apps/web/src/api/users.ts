import type { UserOut } from '@kestrel/domain';
import { defineResource } from './resource';

/** A product user as /api/users/ returns it (contract: userOut). */
export type UserRow = UserOut;

export const users = defineResource<UserRow>('/api/users/', { item: 'user', plural: 'users' });
