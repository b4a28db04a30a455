/** pass^k lives in core (the CLI's `compare` shares it); re-exported here for the store and features. */
export { isSuccess, passHatK, type PassK, type TrialOutcome } from '../core/contract';
