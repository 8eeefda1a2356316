import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/fixtures';

describe('the contract as the app loads it', () => {
  it('builds and parses its schemas without eval, which the CSP forbids', async () => {
    // The test setup turns zod's JIT off as the app does; turn it back on and load the
    // contract afresh, so that only the app's own loading path can turn it off again.
    const { z } = await import('zod');
    z.config({ jitless: false });
    vi.resetModules();
    const evaluated: unknown[][] = [];
    vi.stubGlobal(
      'Function',
      new Proxy(Function, {
        construct(target, args: unknown[]) {
          evaluated.push(args);
          return Reflect.construct(target, args) as object;
        },
      }),
    );

    const { loadContract } = await import('./contract');
    const contract = await loadContract();
    expect(contract.userDetails.parse(makeUser())).toEqual(makeUser());

    // zod's probe is `new Function("")`; its JIT compiles a parser the same way.
    expect(evaluated).toEqual([]);
  });
});
