import {
  COMMITTEE_ROLES,
  GENDERS,
  USER_LOOKUP_MIN_LENGTH,
  userLookupMessages,
} from '@merit/domain';
import { z } from 'zod';

export const userRole = z.object({
  id: z.number().int(),
  committeeId: z.number().int(),
  committeeName: z.string(),
  role: z.enum(COMMITTEE_ROLES),
  commencement: z.iso.datetime(),
  termination: z.iso.datetime(),
  current: z.boolean(),
});
export type UserRole = z.infer<typeof userRole>;

/** The User of spec section 3, with its spec names. */
export const userDetails = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    institution: z.string(),
    gender: z.enum(GENDERS).nullable(),
    phone_number: z.string(),
    is_student: z.boolean(),
    is_admin: z.boolean(),
    registration_complete: z.boolean(),
    is_aaf: z.boolean(),
    hash: z.string(),
    /** A new address waiting for its confirmation link to be followed, if any. */
    pending_email: z.string().nullable(),
    /** Whether an institutional (federated) login opens this account. */
    has_federated_login: z.boolean(),
    /** Whether logging in with the password also asks for a two-step verification code. */
    has_two_factor: z.boolean(),
    roles: z.array(userRole),
    /** What the user may do beyond any one resource, decided on the server's clock. */
    abilities: z.object({
      createCall: z.boolean(),
      readForms: z.boolean(),
      lookUpUsers: z.boolean(),
      review: z.boolean(),
      /**
       * The admin screens and an admin's reach everywhere: false for a non-admin, and for
       * an admin who must turn on two-step verification first (ADMIN_TWO_FACTOR=required).
       */
      administer: z.boolean(),
    }),
  })
  .meta({ id: 'UserDetails' });
export type UserDetails = z.infer<typeof userDetails>;

/**
 * A user as a chair picks them (for an extension): a name and a username. The email only
 * when the search was that exact address, so the picker cannot be used to collect them.
 */
export const userLookupEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  email: z.string().nullable(),
});
export type UserLookupEntry = z.infer<typeof userLookupEntry>;
export const userLookupList = z.array(userLookupEntry);
export const userLookupQuery = z.object({
  q: z.string().trim().min(USER_LOOKUP_MIN_LENGTH, { error: userLookupMessages.tooShort }).max(100),
});
