/**
 * A stand-in for `<altcha-widget>` in jsdom (which has neither workers nor WebCrypto
 * proof of work): verify() "solves" at once with a numbered payload, and every call is
 * logged so tests can see what the form asked of the widget.
 */
export const fakeAltcha = { calls: [] as string[], solutions: 0 };

export function resetFakeAltcha(): void {
  fakeAltcha.calls = [];
  fakeAltcha.solutions = 0;
}

class FakeAltchaWidget extends HTMLElement {
  private state = 'unverified';

  getState(): string {
    return this.state;
  }

  async verify(): Promise<{ payload: string }> {
    fakeAltcha.calls.push('verify');
    fakeAltcha.solutions += 1;
    const payload = `solution-${fakeAltcha.solutions}`;
    this.setState('verified', payload);
    return { payload };
  }

  reset(): void {
    fakeAltcha.calls.push('reset');
    this.setState('unverified', null);
  }

  private setState(state: string, payload: string | null): void {
    this.state = state;
    this.dispatchEvent(new CustomEvent('statechange', { detail: { state, payload } }));
  }
}

/** Replaces `loadAltcha` in tests: `vi.mock(…/load-altcha, () => import(…/fake-altcha))`. */
export async function loadAltcha(): Promise<void> {
  if (!customElements.get('altcha-widget')) {
    customElements.define('altcha-widget', FakeAltchaWidget);
  }
}
