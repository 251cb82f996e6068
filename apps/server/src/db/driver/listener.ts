// LISTEN/NOTIFY on PostgreSQL: one dedicated connection that reconnects.
import pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';

const CHANNEL = /^[a-z_]{1,63}$/;
/** The `application_name` of the listening connections (pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = 'kestrel-listener';
/** `channel` when it is a plain notification channel name (it is sent as an identifier). */
export function channelName(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notification channel ${channel}`);
  return channel;
}

/**
 * LISTEN on a dedicated connection (never a pooled one: a pooled connection is shared by
 * transactions), with TCP keepalive and a heartbeat query every `heartbeatMs`, so that a link
 * dropped silently (a firewall, a failover) is noticed. When it is lost, idle or in the middle of
 * a query, every listener hears `null` and it reconnects after a second, for as long as it takes.
 * A `listen` while the database cannot be reached does not fail: the channel is listened to once
 * the connection is back.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly handlers = new Map<string, Set<(payload: string | null) => void>>();
  private closed = false;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retrying = false;
  /** The sync round trip not sent yet, which callers of `sync` join. */
  private pendingSync: Promise<void> | null = null;
  /** The sync round trip sent and not answered yet. */
  private sentSync: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly heartbeatMs = 30_000,
  ) {}

  async listen(channel: string, fn: (payload: string | null) => void): Promise<void> {
    const name = channelName(channel);
    const known = this.handlers.get(name);
    if (known) known.add(fn);
    else this.handlers.set(name, new Set([fn]));
    try {
      const client = this.client ?? (await this.connect());
      if (!known) await client.query(`LISTEN ${name}`);
    } catch (err) {
      // Lost on the way: the reconnection listens to every channel known by then.
      if (this.closed || !isDatabaseUnavailable(err)) throw err;
      this.retry();
    }
  }

  /**
   * Resolves once every notification committed before the call was handed to the listeners: a
   * `select 1` on the listening connection, sent after the call. PostgreSQL signals every
   * listening backend before the notifying COMMIT returns, and a backend sends what it was
   * signalled before it reads the next query, so the query's answer comes after them. Calls made
   * before a round trip is sent share it (at most one waits behind the one in flight). Rejects
   * while the connection is lost.
   */
  sync(): Promise<void> {
    this.pendingSync ??= this.sentSync
      .catch(() => undefined)
      .then(() => {
        this.pendingSync = null;
        const client = this.client;
        if (!client) throw new Error('the listening connection is lost');
        this.sentSync = client.query('select 1').then(() => undefined);
        return this.sentSync;
      });
    return this.pendingSync;
  }

  private connect(): Promise<pg.Client> {
    this.connecting ??= (async () => {
      // named, so that an operator (or a test) can tell the listening connections
      const client = new pg.Client({
        ...this.config,
        keepAlive: true,
        application_name: LISTENER_APPLICATION_NAME,
      });
      client.on('notification', (m) => {
        for (const h of this.handlers.get(m.channel) ?? []) h(m.payload ?? '');
      });
      client.on('error', () => this.lost(client));
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
        for (const name of this.handlers.keys()) await client.query(`LISTEN ${name}`);
      } catch (err) {
        client.end().catch(() => undefined);
        throw err;
      } finally {
        this.connecting = null;
      }
      if (this.closed) {
        // closed while connecting: this connection is nobody's
        client.end().catch(() => undefined);
        throw new Error('listener closed');
      }
      this.client = client;
      this.heartbeat ??= setInterval(() => {
        const c = this.client;
        c?.query('select 1').catch(() => this.lost(c));
      }, this.heartbeatMs);
      this.heartbeat.unref();
      return client;
    })();
    return this.connecting;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    for (const set of this.handlers.values()) for (const h of set) h(null);
    if (!this.closed) this.retry();
  }

  private retry(): void {
    if (this.retrying) return;
    this.retrying = true;
    setTimeout(() => {
      this.retrying = false;
      if (this.closed || this.client) return;
      this.connect().then(
        () => {
          // Anything sent while it was away is lost: the listeners drop what they keep.
          for (const set of this.handlers.values()) for (const h of set) h(null);
        },
        () => {
          if (!this.closed) this.retry();
        },
      );
    }, 1000).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
