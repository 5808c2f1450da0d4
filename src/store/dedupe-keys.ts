/**
 * The two dedupe keys of a delivery, per tenant and bot: its delivery id, and the optional second key for
 * recovered events. JSON arrays, so no separator inside a name can make two keys collide.
 */
export function dedupeKeys(input: { tenant: string; bot: string; deliveryId: string; dedupeKey?: string | undefined }): {
  delivery: string;
  dedupe: string | undefined;
} {
  return {
    delivery: JSON.stringify(['delivery', input.tenant, input.bot, input.deliveryId]),
    dedupe: input.dedupeKey === undefined ? undefined : JSON.stringify(['key', input.tenant, input.bot, input.dedupeKey]),
  };
}
