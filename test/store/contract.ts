import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../../src/store';
import { dataContract } from './contract-data';
import { deferContract } from './contract-defer';
import { inboxContract } from './contract-inbox';
import { outboxContract } from './contract-outbox';
import { CONTRACT_KEY, type ContractContext, type StoreHarness } from './contract-kit';
import { claimsAndRateContract } from './contract-shared-limits';
import { poisonContract } from './contract-poison';

export { CONTRACT_KEY, type StoreHarness } from './contract-kit';

/**
 * The one contract both stores pass: registers the same tests for any implementation.
 * `makeHarness` builds a fresh, empty backing store per test.
 */
export function storeContract(name: string, makeHarness: () => Promise<StoreHarness>, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`store contract: ${name}`, () => {
    const ctx = contractContext(makeHarness);
    inboxContract(ctx);
    outboxContract(ctx);
    poisonContract(ctx);
    claimsAndRateContract(ctx);
    dataContract(ctx);
    deferContract(ctx);
  });
}

function contractContext(makeHarness: () => Promise<StoreHarness>): ContractContext {
  let harness: StoreHarness | undefined;
  let store: Store | undefined;
  const opened: Store[] = [];
  const open = async (secretKey: string | null = CONTRACT_KEY): Promise<Store> => {
    const s = await harness!.open({ secretKey: secretKey ?? undefined });
    opened.push(s);
    return s;
  };
  beforeEach(async () => {
    harness = await makeHarness();
    store = await open();
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    await harness?.cleanup();
  });
  return {
    get harness() {
      return harness!;
    },
    get clock() {
      return harness!.clock;
    },
    get store() {
      return store!;
    },
    open,
  };
}
