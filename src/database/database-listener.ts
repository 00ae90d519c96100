import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';

export const DATABASE_URL = Symbol('DATABASE_URL');

export interface ChannelSubscriber {
  /** A notification arrived on the channel. */
  onNotification(payload: string | undefined): void;
  /** The listening connection was lost or (re)established: whatever was derived from notifications is unreliable. */
  onReset(): void;
}

/**
 * One dedicated connection that LISTENs to PostgreSQL notification channels and
 * reconnects with backoff. While it is down, subscribers are told to stop trusting
 * their caches (`onReset`), and again once it is back.
 */
@Injectable()
export class DatabaseListener implements OnModuleInit, OnApplicationShutdown {
  private client?: pg.Client;
  private readonly subscribers = new Map<string, Set<ChannelSubscriber>>();
  private connected = false;
  private stopped = false;
  private retryDelayMs = 200;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * Listens on `channel` for `subscriber`. The subscriber trusts what it derives from notifications only from its
   * first `onReset()` on: that call comes once the `LISTEN` is active (here, when the connection is up; after the next
   * connection's `LISTEN`s otherwise), so a change committed before it can never go unnoticed. Resolves once the
   * `LISTEN` is active, or at once while the connection is down.
   */
  async subscribe(channel: string, subscriber: ChannelSubscriber): Promise<void> {
    const set = this.subscribers.get(channel) ?? new Set();
    set.add(subscriber);
    this.subscribers.set(channel, set);
    const client = this.connected ? this.client : undefined;
    if (!client) return;
    try {
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      // The connection failed: its loss resets every subscriber, and the next connection listens again.
      return;
    }
    if (this.client === client) subscriber.onReset();
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'order-tax-service:listener' });
    client.on('notification', (message) => {
      for (const subscriber of this.subscribers.get(message.channel) ?? []) subscriber.onNotification(message.payload);
    });
    client.on('error', (error) => this.logger.warn({ context: 'DatabaseListener', err: error }, 'listener connection error'));
    client.on('end', () => this.lost());
    try {
      await client.connect();
      for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.client = client;
      this.connected = true;
      this.retryDelayMs = 200;
      this.resetAll();
    } catch (error) {
      await client.end().catch(() => undefined);
      this.logger.warn({ context: 'DatabaseListener', err: error }, 'could not listen for database notifications; retrying');
      this.scheduleReconnect();
    }
  }

  private lost(): void {
    if (!this.connected) return;
    this.connected = false;
    this.client = undefined;
    this.resetAll();
    if (!this.stopped) {
      this.logger.warn({ context: 'DatabaseListener' }, 'lost the notification connection; reconnecting');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 10_000);
  }

  private resetAll(): void {
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.onReset();
  }
}
