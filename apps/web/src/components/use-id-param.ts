import { useParams } from 'react-router';

/** A numeric id from the route (`/users/:userId/`), or null when it is not one. */
export function useIdParam(name: string): number | null {
  const value = useParams()[name];
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}
