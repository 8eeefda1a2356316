import { NotFoundView } from '../../components/NotFoundView';

/** Any path no route claims, signed in or not (spec section 2). */
export default function NotFoundPage() {
  return <NotFoundView standalone />;
}
