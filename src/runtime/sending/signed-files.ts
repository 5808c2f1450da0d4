import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import type { Store } from '../../store/store';

const KV = 'runtime:files';
const KEY_SECRET = 'files-signing-key';
/** Incoming webhooks download within 15 s (spec: Limits); a retry of the send may come later. */
export const FILE_URL_TTL_MS = 30 * 60_000;

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
};

/**
 * Local files and bytes the platform must download (incoming-webhook media take URLs only) are
 * served at `GET /files/<id>.<expiry>.<signature>/<filename>`: unguessable, HMAC-signed with a key
 * kept encrypted in the store (shared by replicas), and gone after 30 minutes.
 */
export class SignedFiles {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly baseUrl: () => string,
  ) {}

  /** Stores the file and answers its signed URL. */
  async urlFor(file: { path: string } | { data: Uint8Array; filename: string }): Promise<string> {
    const data = 'path' in file ? await readFile(file.path) : Buffer.from(file.data);
    const filename = safeFilename('path' in file ? basename(file.path) : file.filename);
    // short enough for a path parameter (Fastify allows 100 characters): 22 + 8 + 32
    const id = randomBytes(16).toString('base64url');
    const expires = Math.ceil((this.clock.now() + FILE_URL_TTL_MS) / 1000).toString(36);
    await this.store.kv(KV).set(id, { filename, data: data.toString('base64') }, { ttlMs: FILE_URL_TTL_MS });
    const token = `${id}.${expires}.${await this.sign(`${id}.${expires}`)}`;
    return `${this.baseUrl().replace(/\/$/, '')}/files/${token}/${encodeURIComponent(filename)}`;
  }

  /** The file a token names, when its signature holds and it has not expired. */
  async read(token: string): Promise<{ filename: string; data: Buffer } | undefined> {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [id, expires, signature] = parts;
    if (!id || !expires || !signature || !/^[0-9a-z]+$/.test(expires) || parseInt(expires, 36) * 1000 < this.clock.now()) return undefined;
    const expected = Buffer.from(await this.sign(`${id}.${expires}`), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const stored = (await this.store.kv(KV).get(id)) as { filename: string; data: string } | undefined;
    return stored ? { filename: stored.filename, data: Buffer.from(stored.data, 'base64') } : undefined;
  }

  register(app: FastifyInstance): void {
    app.get<{ Params: { token: string; filename: string } }>('/files/:token/:filename', async (request, reply) => {
      const file = await this.read(request.params.token);
      if (!file) return reply.code(404).send({ error: 'not_found', message: 'no such file, or its link expired' });
      return reply.type(TYPES[extname(file.filename).toLowerCase()] ?? 'application/octet-stream').send(file.data);
    });
  }

  private async sign(value: string): Promise<string> {
    this.key ??= (async () => {
      const existing = await this.store.secrets.get(KEY_SECRET);
      if (existing) return Buffer.from(existing, 'base64');
      // replicas starting together each offer a key; every one of them keeps the first written
      return Buffer.from(await this.store.secrets.putIfAbsent(KEY_SECRET, randomBytes(32).toString('base64')), 'base64');
    })().catch((error: unknown) => {
      // not remembered: the next link tries the store again
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', await this.key)
      .update(value)
      .digest('hex')
      .slice(0, 32);
  }
}

/**
 * The last segment of the file's URL. A name that is empty, a dot segment, or holds a separator would
 * change the URL the platform resolves (`/files/<token>/..` is `/files/`): its last part is kept, or
 * `file`. Control characters go too (the name also types the download).
 *
 * @example safeFilename('../../etc/passwd') // 'passwd'
 */
export function safeFilename(name: string): string {
  const last =
    name
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .split(/[/\\]/)
      .pop() ?? '';
  return last === '' || last === '.' || last === '..' ? 'file' : last;
}
