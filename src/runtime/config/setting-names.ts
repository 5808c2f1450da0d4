/**
 * Names a setting the way the user set it, for error messages (issue #15): the environment variable
 * when the value came from one (`INTRABOT_TOKEN`), else the file and its path as written there
 * (`intrabot.yaml: tenants[0].token`), never an internal key (`tenants.0.token`). Values shown beside a
 * name go through `shownValue`, which masks secrets.
 */

type Env = Readonly<Record<string, string | undefined>>;

export interface SettingSources {
  env: Env;
  /** The top-level keys an environment variable sets (`INTRABOT_PORT` -> `port`). */
  envKeys: Readonly<Record<string, string>>;
  /** How the configuration file is named in messages (default `intrabot.yaml`). */
  file?: string;
}

/** The tenant made from the environment (`INTRABOT_BASE_URL` + `INTRABOT_TOKEN`), field by field. */
export const TENANT_ENV: Readonly<Record<string, string>> = {
  base_url: 'INTRABOT_BASE_URL',
  token: 'INTRABOT_TOKEN',
  customer: 'INTRABOT_CUSTOMER',
  timezone: 'INTRABOT_TIMEZONE',
};

const set = (env: Env, name: string): boolean => env[name] !== undefined && env[name] !== '';

/** `['tenants', 0, 'token']` as written in YAML: `tenants[0].token`. */
export function yamlPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number' || /^\d+$/.test(String(part))) out += `[${String(part)}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}

/**
 * The name of the setting at `path` of the configuration.
 *
 * @example settingName(['tenants', 0, 'token'], { env: { INTRABOT_TOKEN: 'svc_x', INTRABOT_BASE_URL: 'https://a' }, envKeys }) // 'INTRABOT_TOKEN'
 * @example settingName(['tenants', 0, 'token'], { env: {}, envKeys }) // 'intrabot.yaml: tenants[0].token'
 */
export function settingName(path: readonly PropertyKey[], sources: SettingSources): string {
  const file = sources.file ?? 'intrabot.yaml';
  const [head, index, field] = path;
  if (head === 'tenants' && typeof field === 'string') {
    const i = Number(index);
    const fromEnv = set(sources.env, 'INTRABOT_BASE_URL') || set(sources.env, 'INTRABOT_TOKEN');
    if (fromEnv && i === 0 && TENANT_ENV[field]) return TENANT_ENV[field];
    // the environment's tenant comes first; the file's follow it
    const fileIndex = fromEnv ? i - 1 : i;
    return `${file}: ${yamlPath(['tenants', fileIndex, ...path.slice(2)])}`;
  }
  const envName = Object.entries(sources.envKeys).find(([, key]) => key === head)?.[0];
  if (envName && path.length === 1) return envName;
  return `${file}: ${yamlPath(path)}`;
}

/** Keys whose values are secrets: shown masked. */
const SECRET = /token|secret|key|password/i;

/**
 * A setting's value for a message: secrets keep their first four characters and last four at most
 * (`svc_…k3x9`); a URL's password is masked.
 *
 * @example shownValue('INTRABOT_TOKEN', 'svc_0123456789abcdef') // 'svc_…cdef'
 */
export function shownValue(name: string, value: unknown): string {
  const text = String(value);
  if (SECRET.test(name)) return text.length > 12 ? `${text.slice(0, 4)}…${text.slice(-4)}` : '…';
  return maskUrlSecrets(text);
}

/**
 * A URL's password and any query parameter named like a secret (`sentinel_password=`) masked, also in
 * URLs the WHATWG parser refuses (`redis+sentinel://:pw@host1:26379,host2:26379/name`); other text as it is.
 */
function maskUrlSecrets(text: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)(?:([^@/?#]*)@)?([^?#]*)(\?[^#]*)?(#.*)?$/.exec(text);
  if (!match) return text;
  const [, scheme, userinfo, rest = '', query, fragment = ''] = match;
  const sep = userinfo?.indexOf(':') ?? -1;
  const user = userinfo === undefined ? '' : sep < 0 ? `${userinfo}@` : `${userinfo.slice(0, sep)}:***@`;
  const params = query?.replace(/([?&][^=&]*(?:token|secret|key|password)[^=&]*=)[^&]*/gi, '$1***') ?? '';
  return `${scheme}${user}${rest}${params}${fragment}`;
}
