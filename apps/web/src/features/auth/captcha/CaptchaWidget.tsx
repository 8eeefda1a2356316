import type {} from 'altcha/types/react';
import { Alert, Box } from '@mui/material';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { API_BASE } from '../../../api/client';
import { loadAltcha } from './load-altcha';

export const CAPTCHA_CHALLENGE_URL = `${API_BASE}/auth/captcha/`;

/** What a form does with the widget. */
export interface CaptchaHandle {
  /** The solution to send: the current one, or a new one solved now; null when that failed. */
  solve: () => Promise<string | null>;
  /** Starts over with a new challenge, after the server has seen (and used up) a solution. */
  renew: () => void;
}

/**
 * The ALTCHA proof-of-work check of the registration form. It starts solving when the
 * user first focuses a field of the form (~40 ms of hashing, shown for half a second),
 * so a solution is normally ready by the time they submit.
 */
export function CaptchaWidget({ ref }: { ref: Ref<CaptchaHandle> }) {
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const widget = useRef<HTMLElementTagNameMap['altcha-widget']>(null);
  /** The payload of the last verification, until the widget leaves the verified state. */
  const payload = useRef<string | null>(null);

  useEffect(() => {
    let active = true;
    loadAltcha().then(
      () => active && setStatus('ready'),
      (error: unknown) => {
        console.error('The ALTCHA widget could not be loaded', error);
        if (active) setStatus('failed');
      },
    );
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    const element = widget.current;
    if (status !== 'ready' || !element) return;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<{ state: string; payload: string | null }>).detail;
      payload.current = detail.state === 'verified' ? detail.payload : null;
    };
    element.addEventListener('statechange', onStateChange);
    return () => element.removeEventListener('statechange', onStateChange);
  }, [status]);

  useImperativeHandle(ref, () => ({
    async solve() {
      const element = widget.current;
      if (!element) return null;
      if (element.getState() === 'verified' && payload.current) return payload.current;
      // verify() restarts a verification that is under way, with a fresh challenge.
      const result = await element.verify();
      return result?.payload ?? null;
    },
    renew() {
      const element = widget.current;
      if (!element) return;
      element.reset();
      void element.verify();
    },
  }));

  if (status === 'failed') {
    return (
      <Alert severity="warning">
        The human check could not be loaded. Check your connection and reload the page.
      </Alert>
    );
  }
  return (
    <Box sx={{ minHeight: 72, '--altcha-max-width': '100%' }}>
      {status === 'ready' && (
        <altcha-widget
          ref={widget}
          challenge={CAPTCHA_CHALLENGE_URL}
          auto="onfocus"
          name="captcha"
          // One worker finds the ~4096-try SHA-256 solution in tens of milliseconds.
          workers={1}
        />
      )}
    </Box>
  );
}
