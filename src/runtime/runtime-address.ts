import type { RuntimeConfig } from './config/config';

/**
 * Where the platform reaches this runtime (signed `/files` URLs, webhook endpoints): the configured
 * public URL, else where it listens once it does, else its configured port on loopback.
 */
export class RuntimeAddress {
  private listening: string | undefined;

  constructor(private readonly config: Pick<RuntimeConfig, 'public_url' | 'port' | 'host'>) {}

  /** The URL the runtime listens at, once it does. */
  get url(): string | undefined {
    return this.listening;
  }

  /** The app listens on `port` (the one the OS gave, for port 0). */
  listeningOn(port: number): string {
    const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
    this.listening = `http://${host}:${port}`;
    return this.listening;
  }

  /** What the platform is given to reach this runtime. */
  public(): string {
    return this.config.public_url ?? this.listening ?? `http://127.0.0.1:${this.config.port}`;
  }
}
