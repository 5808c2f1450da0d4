/**
 * The line for a connected runtime without a public URL, said the same by `loadConfig` (with every other
 * problem) and by `start` and `provision` (src/runtime/start/start-failure.ts).
 */
export function publicUrlMissingMessage(name: string): string {
  return `${name} is required in connected mode: it is where the platform delivers events (<url>/hooks/<tenant>/<bot>); set it to this runtime's https address as the platform reaches it`;
}
