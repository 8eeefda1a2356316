import type * as Contract from '@merit/contract';
import type { z } from 'zod';

export type ContractModule = typeof Contract;

/** Picks a schema out of the contract once it has loaded: `(c) => c.userDetails`. */
export type SchemaPicker<S extends z.ZodType> = (contract: ContractModule) => S;

let contract: Promise<ContractModule> | undefined;

/**
 * The contract's schemas, and zod with them, load on the first API call instead of
 * with the first page: zod alone is ~26 KB of gzipped JavaScript, and the login page
 * must stay within the 200 KB budget (ARCHITECTURE.md) before anyone types anything.
 * The download runs in parallel with the first request, so nobody waits for it.
 */
export function loadContract(): Promise<ContractModule> {
  contract ??= import('./contract-module').catch((error: unknown) => {
    // Let the next call try again (a flaky network, or a deployment replaced the file).
    contract = undefined;
    throw error;
  });
  return contract;
}

/** A 204 answer: the body is empty, which the client reads as `undefined`. */
export const noBody: SchemaPicker<z.ZodOptional<ContractModule['noContent']>> = (c) =>
  c.noContent.optional();
