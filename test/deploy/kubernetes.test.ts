import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ENV_KEYS, loadConfig } from '../../src/runtime/config/config';
import { FILE_SETTINGS } from '../../src/runtime/config/setting-files';
import { TENANT_ENV } from '../../src/runtime/config/setting-names';

const DIR = 'deploy/kubernetes';

interface Doc {
  file: string;
  value: Record<string, any>;
}

function documents(): Doc[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((doc) => {
        expect(doc.errors, file).toEqual([]);
        return { file, value: doc.toJS() as Record<string, any> };
      }),
    );
}

/** Every variable intrabot itself reads, and every `${env:X}` of the repository's bots. */
function knownVariables(): Set<string> {
  const known = new Set<string>([...Object.keys(ENV_KEYS), ...FILE_SETTINGS, ...Object.values(TENANT_ENV), 'INTRABOT_BOTS', 'INTRABOT_MIDDLEWARE']);
  for (const bot of readdirSync('bots', { withFileTypes: true }).filter((d) => d.isDirectory())) {
    let manifest = '';
    try {
      manifest = readFileSync(join('bots', bot.name, 'bot.yaml'), 'utf8');
    } catch {
      continue;
    }
    for (const match of manifest.matchAll(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)/g)) known.add(match[1]!);
  }
  return known;
}

const deployment = (docs: Doc[]) => docs.find((d) => d.value.kind === 'Deployment' && d.value.metadata?.name === 'intrabot')!.value;

/** Issue #24, item 4: the Kubernetes example stays in step with the runtime it deploys. */
describe('deploy/kubernetes', () => {
  it('parses: every document has a kind, an apiVersion and a name', () => {
    const docs = documents();
    expect(docs.map((d) => d.value.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'Secret', 'Service', 'Service']);
    for (const { file, value } of docs) {
      expect(value.apiVersion, file).toMatch(/^(v1|apps\/v1)$/);
      expect(value.metadata?.name, file).toEqual(expect.any(String));
    }
  });

  it('runs two replicas on Redis, probing /livez (startup, liveness) and /readyz (readiness) on the container port', () => {
    const spec = deployment(documents());
    expect(spec.spec.replicas).toBe(2);
    const container = spec.spec.template.spec.containers[0];
    expect(container.startupProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.ports).toEqual([{ containerPort: 3000, name: 'http' }]);
    expect(container.env).toEqual(expect.arrayContaining([{ name: 'INTRABOT_REDIS_URL', value: expect.stringMatching(/^redis:\/\//) }]));
  });

  it('sets only variables intrabot reads (a _FILE variable for a setting that has one), and secrets only as files', () => {
    const known = knownVariables();
    const env: { name: string; value?: string }[] = deployment(documents()).spec.template.spec.containers[0].env;
    for (const { name } of env) {
      const setting = name.replace(/_FILE$/, '');
      expect(known.has(setting), `${name} is no setting intrabot reads`).toBe(true);
      if (name.startsWith('INTRABOT_') && name.endsWith('_FILE')) expect(FILE_SETTINGS, name).toContain(setting);
    }
    for (const secret of ['INTRABOT_TOKEN', 'INTRABOT_SECRET_KEY', 'INTRABOT_ADMIN_TOKEN']) {
      expect(env.map((e) => e.name)).toContain(`${secret}_FILE`);
      expect(env.map((e) => e.name)).not.toContain(secret);
    }
  });

  it('mounts the Secret where the _FILE variables point, and each key they name exists in it', () => {
    const docs = documents();
    const pod = deployment(docs).spec.template.spec;
    const secret = docs.find((d) => d.value.kind === 'Secret')!.value;
    const volume = pod.volumes.find((v: { secret?: { secretName: string } }) => v.secret?.secretName === secret.metadata.name);
    const mount = pod.containers[0].volumeMounts.find((m: { name: string }) => m.name === volume.name);
    for (const { name, value } of pod.containers[0].env as { name: string; value: string }[]) {
      if (!name.endsWith('_FILE')) continue;
      expect(value.startsWith(`${mount.mountPath}/`), name).toBe(true);
      expect(Object.keys(secret.stringData), name).toContain(value.slice(mount.mountPath.length + 1));
    }
  });

  it('gives the Service a selector matching the pods and the container port by name', () => {
    const docs = documents();
    const service = docs.find((d) => d.value.kind === 'Service' && d.value.metadata.name === 'intrabot')!.value;
    expect(service.spec.selector).toEqual(deployment(docs).spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
  });

  it('configures a connected runtime that loads: the ConfigMap as intrabot.yaml, the env as set, the Secret as mounted files', () => {
    const docs = documents();
    const pod = deployment(docs).spec.template.spec;
    const secret = docs.find((d) => d.value.kind === 'Secret')!.value;
    const configMap = docs.find((d) => d.value.kind === 'ConfigMap')!.value;
    const cwd = mkdtempSync(join(tmpdir(), 'intrabot-k8s-'));
    writeFileSync(join(cwd, 'intrabot.yaml'), configMap.data['intrabot.yaml']);
    const mounted = mkdtempSync(join(tmpdir(), 'intrabot-k8s-secrets-'));
    // the placeholders stand for real values: a service token and a strong key
    const values: Record<string, string> = { ...secret.stringData, token: 'svc_k8s_example', 'secret-key': 'k8s-example-passphrase-not-for-production' };
    const env: Record<string, string> = {};
    for (const { name, value } of pod.containers[0].env as { name: string; value: string }[]) {
      if (!name.endsWith('_FILE')) env[name] = value;
      else {
        const path = join(mounted, value.split('/').pop()!);
        writeFileSync(path, `${values[value.split('/').pop()!]}\n`);
        env[name] = path;
      }
    }
    const config = loadConfig({ env, cwd, forStart: true });
    expect(config).toMatchObject({ mode: 'connected', host: '0.0.0.0', port: 3000, redis_url: 'redis://intrabot-redis:6379', bots: ['alerts'] });
    expect(config.tenants[0]).toMatchObject({ id: 'default', token: 'svc_k8s_example' });
  });
});
