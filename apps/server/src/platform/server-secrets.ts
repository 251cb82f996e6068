import { randomBytes } from 'node:crypto';
import type { Database } from '../db/connection.js';

/** The key that signs anonymous visitors' CSRF tokens (anonymous-csrf.ts). */
export const ANONYMOUS_CSRF_SECRET = 'anonymous_csrf';

/**
 * The secrets of this installation (`server_secrets`): each made at random (256 bits) by the
 * first server process that needs it and shared by every process on the database, never shipped
 * in the source. Read once at start through the owner's login (DATABASE_URL): no context role a
 * request runs as may read them (decision 011). Modules name the secrets they need
 * (`KestrelModule.secrets`, e.g. a simulator's callback secret), and buildApp loads them all.
 */
export class ServerSecrets {
  private constructor(private readonly values: ReadonlyMap<string, string>) {}

  /** Reads the secrets named, making each one missing first (concurrent starts agree). */
  static async load(db: Database, names: readonly string[]): Promise<ServerSecrets> {
    const wanted = [...new Set(names)];
    await db.ownerQuery(
      `insert into server_secrets (name, value)
       select * from unnest($1::text[], $2::text[]) on conflict (name) do nothing`,
      [wanted, wanted.map(() => randomBytes(32).toString('hex'))],
    );
    const { rows } = await db.ownerQuery(
      'select name, value from server_secrets where name = any($1::text[])',
      [wanted],
    );
    const values = new Map(rows.map((r) => [String(r.name), String(r.value)]));
    for (const name of wanted) {
      if (!values.get(name)) throw new Error(`the server secret ${name} could not be made`);
    }
    return new ServerSecrets(values);
  }

  /** The secret of `name`; a name no module declared is a programming error. */
  get(name: string): string {
    const value = this.values.get(name);
    if (!value) throw new Error(`the server secret ${name} is not declared by any module`);
    return value;
  }
}

/** What reads a secret by name (the loaded ServerSecrets; tests may pass their own). */
export type SecretSource = Pick<ServerSecrets, 'get'>;
