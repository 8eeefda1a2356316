import { useParams } from 'react-router';

/** A numeric id as a route's address writes it (`/users/12/`), or null when it is not one. */
export function idOf(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** A numeric id from the route (`/users/:userId/`), or null when it is not one. */
export function useIdParam(name: string): number | null {
  return idOf(useParams()[name]);
}
