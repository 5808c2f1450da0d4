import { X509Certificate } from 'node:crypto';
import type { SnsFetch } from './sns-fetch';

/** SNS signs with a few certificates per region; more than this many distinct URLs is not SNS. */
export const SNS_CERTIFICATE_CACHE_SIZE = 32;

/**
 * The signing certificates of SNS, fetched once per URL and kept (the least recently used is dropped
 * beyond `max`). Concurrent requests for one URL share one fetch; a fetch that failed is not kept, so
 * SNS's retry fetches again. One instance per alert route registration: no module-level state.
 *
 * @example
 * const certificates = new SnsCertificates(fetchFromSns);
 * const certificate = await certificates.get(new URL(message.SigningCertURL));
 */
export class SnsCertificates {
  private readonly cache = new Map<string, Promise<X509Certificate>>();

  constructor(
    private readonly fetch: SnsFetch,
    private readonly max = SNS_CERTIFICATE_CACHE_SIZE,
  ) {}

  /** The certificate at `url` (checked by `snsCertificateUrl` first); rejects when it cannot be fetched or read. */
  get(url: URL): Promise<X509Certificate> {
    const key = url.href;
    const cached = this.cache.get(key);
    if (cached) {
      // most recently used last: Map keeps insertion order
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const loading = this.fetch(url).then((pem) => new X509Certificate(pem));
    this.cache.set(key, loading);
    loading.catch(() => {
      if (this.cache.get(key) === loading) this.cache.delete(key);
    });
    while (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    return loading;
  }
}
