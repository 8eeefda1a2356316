import { linkMail, type Mail } from '../../platform/io/mailer.js';

/**
 * The notice after a security key was added to or removed from the account (ASVS V2.5.5:
 * its authentication factors changed), to the account's address, so whoever did not make
 * the change learns of it. The key's name is the one its owner gave it.
 */
export function securityKeyChangedMail(
  to: string,
  name: string,
  resetLink: string,
  change: 'added' | 'removed',
  keyName: string,
): Mail {
  return linkMail({
    to,
    subject:
      change === 'added'
        ? 'A security key was added to your Merit account'
        : 'A security key was removed from your Merit account',
    greeting: `Hello ${name},`,
    lines: [
      change === 'added'
        ? `The security key “${keyName}” was just added to your Merit account: after your password, touching it now logs in, as a code from your authenticator app does.`
        : `The security key “${keyName}” was just removed from your Merit account: it no longer logs in.`,
      'If this was you, there is nothing to do.',
    ],
    action: 'If it was not you, choose a new password now',
    link: resetLink,
    footer:
      'Then check the security keys and two-step verification in My Account, or tell the people who run Merit for your organisation.',
  });
}
