import { defineBot } from 'intrabot';
import { pairingCommand } from './opt-in';
import { pairJob } from './pair-job';
import { PairingConfigSchema } from './pairing-config';

/**
 * Random coffee pairs: each week the `pair` job pairs the members of a group and whoever joined
 * (`/pairing join`), avoiding the pairs of the last rounds (an odd count gives one trio), and tells
 * each pair or trio by direct message whom they meet.
 */
export default defineBot({
  config: PairingConfigSchema,
  jobs: { pair: pairJob },
  commands: {
    pairing: {
      description: 'Coffee pairs: "/pairing join" to take part, "/pairing leave" to stop, "/pairing" to see where you stand',
      args: [{ name: 'action', required: false, description: 'join or leave' }],
      run: pairingCommand,
    },
  },
});
