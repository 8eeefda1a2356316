// First, so that zod is told not to probe for eval before the contract builds a schema
// (imports run in the order they are written).
import './zod-jitless';

/** The contract as the app loads it: with zod's eval probe and JIT turned off. */
export * from '@merit/contract';
