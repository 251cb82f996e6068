import { defineResource } from './resource';

/** A product user as the users list shows it. */
export interface UserRow {
  id: number;
  first_name: string;
  last_name: string;
  username: string;
}

export const users = defineResource<UserRow>('/api/users/', { item: 'user', plural: 'users' });
