// The npm registry reachable from these machines serves only some of the platform-specific optional
// packages (rollup's and msgpackr-extract's binaries for other systems are missing), so `npm install`
// writes a lockfile without them and `npm ci` then refuses it as out of sync. This adds the missing
// entries with their os/cpu/libc, so `npm ci` knows they are for other platforms and skips them.
// Run after `npm install` changes the lockfile: node .ci/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'netbsd', 'sunos', 'aix'];
const CPU = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return undefined;
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p === 'gnu' || p === 'gnueabihf') ? 'glibc' : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const here = `${path ? `${path}/` : ''}node_modules/${dep}`;
    if (packages[here] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = { version, ...platform, license: 'MIT', optional: true };
    added += 1;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
