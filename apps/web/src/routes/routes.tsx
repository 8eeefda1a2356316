import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import {
  matchRoutes,
  Outlet,
  ScrollRestoration,
  type Params,
  type RouteObject,
} from 'react-router';
import { loadContract } from '../api/contract';
import { getToken } from '../api/session';
import { LoadingView } from '../components/LoadingView';
import { NotFoundView } from '../components/NotFoundView';
import { RouteErrorView, StandaloneRouteErrorView } from '../components/RouteErrorView';
import { idOf } from '../components/use-id-param';
import {
  RedirectIfSignedIn,
  RequireArea,
  RequireIncompleteRegistration,
  RequireSession,
} from '../features/auth/RouteGuards';
import { currentUserQuery, useToken } from '../features/auth/session-hooks';
import { callDetailQuery } from '../features/calls/call-queries';
import { callRankingQuery, rankingFiltersOf } from '../features/decisions/ranking-queries';
import { callProgressQuery } from '../features/progress/progress-queries';
import { callProposalsQueryOfAddress } from '../features/proposals/call-proposals-query';
import { callProposalsPageQuery } from '../features/proposals/proposal-queries';

// Every page is its own chunk, and React.lazy downloads it only when it renders. So the
// guards (in the entry chunk) decide first: a visitor sent to login never downloads
// the shell or an admin page. The first address's own pages start downloading at once,
// before anything renders (preloadFirstRoute).

type PageModule = { default: ComponentType };
type LazyPage = ComponentType<{ fallback: ReactNode }> & { preload: () => Promise<PageModule> };

/**
 * React.lazy, keeping the import so that preloadFirstRoute can start it early, and without
 * Suspense where Suspense costs time. React holds back what replaces a Suspense fallback
 * until 300 ms after the fallback showed, and React.lazy suspends even for code that has
 * arrived (its import() resolves a tick later). The first load of a signed-in page paid it
 * once or twice, 300-400 ms each with the code there or nearly (bench figure (e)). So a page
 * whose code has arrived renders at once, and one whose download preloadFirstRoute started
 * shows `fallback` until it arrives, with an ordinary update. Any other (a page first opened
 * by a link) is React.lazy's, as before: the router's navigation is a transition, so the
 * page before it stays on screen while the code downloads.
 */
function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<PageModule> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // Asked again (React.lazy, below), the download is tried again and its failure shown.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(preload);

  function Page({ fallback }: { fallback: ReactNode }) {
    // Chosen once per mount, so that a page never remounts when its code arrives.
    const [Loaded, setLoaded] = useState(() => loaded);
    const [waitFor] = useState(() => (loaded ? undefined : loading));
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (!waitFor) return;
      let mounted = true;
      waitFor.then(
        (module) => mounted && setLoaded(() => module.default),
        () => mounted && setFailed(true),
      );
      return () => {
        mounted = false;
      };
    }, [waitFor]);
    if (Loaded) return <Loaded />;
    if (waitFor && !failed) return fallback;
    return <Lazy />;
  }
  return Object.assign(Page, { preload });
}

const LoginPage = lazyPage(() => import('./auth/LoginPage'));
const RegisterPage = lazyPage(() => import('./auth/RegisterPage'));
const RegisterCompletePage = lazyPage(() => import('./auth/RegisterCompletePage'));
const ResendVerificationPage = lazyPage(() => import('./auth/ResendVerificationPage'));
const VerifyEmailPage = lazyPage(() => import('./auth/VerifyEmailPage'));
const PasswordResetPage = lazyPage(() => import('./auth/PasswordResetPage'));
const PasswordResetConfirmPage = lazyPage(() => import('./auth/PasswordResetConfirmPage'));
const OidcCompletePage = lazyPage(() => import('./auth/OidcCompletePage'));
const OidcErrorPage = lazyPage(() => import('./auth/OidcErrorPage'));
const CompleteRegistrationPage = lazyPage(() => import('./auth/CompleteRegistrationPage'));
const AppShell = lazyPage(() => import('../features/shell/AppShell'));
const DashboardPage = lazyPage(() => import('./dashboard/DashboardPage'));
const CallListPage = lazyPage(() => import('./calls/CallListPage'));
const CallDetailPage = lazyPage(() => import('./calls/CallDetailPage'));
const ManageCallPage = lazyPage(() => import('./calls/ManageCallPage'));
const CallConflictsPage = lazyPage(() => import('./calls/CallConflictsPage'));
const AssignmentPage = lazyPage(() => import('./calls/AssignmentPage'));
// The matrix brings the virtualiser (@tanstack/react-virtual): only its route loads it.
const AssignmentMatrixPage = lazyPage(() => import('./calls/AssignmentMatrixPage'));
const BidsPage = lazyPage(() => import('./calls/BidsPage'));
const ProgressPage = lazyPage(() => import('./calls/ProgressPage'));
const RemindersPage = lazyPage(() => import('./calls/RemindersPage'));
const RankingPage = lazyPage(() => import('./calls/RankingPage'));
// The letters' editor brings the template engine (LiquidJS): only its route loads it.
const LettersPage = lazyPage(() => import('./calls/LettersPage'));
const CallActivityPage = lazyPage(() => import('./calls/CallActivityPage'));
// The wizard brings the rich-text editor (TipTap), as its own chunk on top.
const NewCallPage = lazyPage(() => import('./calls/NewCallPage'));
const EditCallPage = lazyPage(() => import('./calls/EditCallPage'));
const NewProposalPage = lazyPage(() => import('./proposals/NewProposalPage'));
const CallProposalsPage = lazyPage(() => import('./proposals/CallProposalsPage'));
// The editor brings react-jsonschema-form and the form validator: only its route loads them.
const ProposalEditorPage = lazyPage(() => import('./proposals/ProposalEditorPage'));
// The review editor brings react-jsonschema-form, as the proposal editor does.
const ReviewEditorPage = lazyPage(() => import('./reviews/ReviewEditorPage'));
const ReviewListPage = lazyPage(() => import('./reviews/ReviewListPage'));
const PendingReviewsPage = lazyPage(() => import('./reviews/PendingReviewsPage'));
const AccountPage = lazyPage(() => import('./account/AccountPage'));
const ChangePasswordPage = lazyPage(() => import('./account/ChangePasswordPage'));
const UserListPage = lazyPage(() => import('./users/UserListPage'));
const UserDetailPage = lazyPage(() => import('./users/UserDetailPage'));
const NewRolePage = lazyPage(() => import('./users/NewRolePage'));
const EditRolePage = lazyPage(() => import('./users/EditRolePage'));
const CommitteeListPage = lazyPage(() => import('./committees/CommitteeListPage'));
const NewCommitteePage = lazyPage(() => import('./committees/NewCommitteePage'));
const CommitteeDetailPage = lazyPage(() => import('./committees/CommitteeDetailPage'));
const FormBuilderPage = lazyPage(() => import('./forms/FormBuilderPage'));
// The form editor brings the JSON editors and react-jsonschema-form: only its own route
// downloads them.
const NewFormPage = lazyPage(() => import('./forms/NewFormPage'));
const EditFormPage = lazyPage(() => import('./forms/EditFormPage'));
const AdminActivityPage = lazyPage(() => import('./activity/AdminActivityPage'));

/** A lazy page with the loading view while its code downloads. */
function page(Page: LazyPage, { standalone = false } = {}) {
  const fallback = <LoadingView standalone={standalone} />;
  return (
    <Suspense fallback={fallback}>
      <Page fallback={fallback} />
    </Suspense>
  );
}

function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** The signed-in frame (top bar, side menu), once registration is complete. */
const appFrame = <RequireArea area="member">{page(AppShell, { standalone: true })}</RequireArea>;

/** RequireSession for someone signed in; a visitor sees `visitor` instead of the login. */
function SessionOr({ visitor }: { visitor: ReactNode }) {
  return useToken() === null ? visitor : <RequireSession />;
}

/**
 * The route table (spec section 2). Guards nest: RequireSession (signed in, details
 * loaded) > RequireArea member (registration complete) > RequireArea admin.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    ErrorBoundary: StandaloneRouteErrorView,
    children: [
      {
        path: 'auth/login',
        element: <RedirectIfSignedIn>{page(LoginPage, { standalone: true })}</RedirectIfSignedIn>,
      },
      {
        path: 'auth/register',
        element: (
          <RedirectIfSignedIn>{page(RegisterPage, { standalone: true })}</RedirectIfSignedIn>
        ),
      },
      {
        path: 'auth/password-reset',
        element: (
          <RedirectIfSignedIn>{page(PasswordResetPage, { standalone: true })}</RedirectIfSignedIn>
        ),
      },
      // Pages of links from emails and from the identity provider: open to anyone, signed
      // in or not (a signed-in user confirms a new email address here too).
      { path: 'auth/register/complete', element: page(RegisterCompletePage, { standalone: true }) },
      { path: 'auth/register/resend', element: page(ResendVerificationPage, { standalone: true }) },
      {
        path: 'auth/registration/account-confirm-email/:confirmationKey',
        element: page(VerifyEmailPage, { standalone: true }),
      },
      {
        path: 'auth/password-reset/confirm/:uidb64/:token',
        element: page(PasswordResetConfirmPage, { standalone: true }),
      },
      { path: 'auth/oidc/complete', element: page(OidcCompletePage, { standalone: true }) },
      { path: 'auth/oidc/error', element: page(OidcErrorPage, { standalone: true }) },
      {
        element: <RequireSession />,
        children: [
          {
            path: 'auth/complete_registration',
            element: (
              <RequireIncompleteRegistration>
                {page(CompleteRegistrationPage, { standalone: true })}
              </RequireIncompleteRegistration>
            ),
          },
          {
            element: appFrame,
            children: [
              {
                // Inside the shell, so a failing page keeps the menu to navigate away.
                ErrorBoundary: RouteErrorView,
                children: [
                  { index: true, element: page(DashboardPage) },
                  { path: 'calls', element: page(CallListPage) },
                  { path: 'calls/closed', element: page(CallListPage) },
                  { path: 'calls/all', element: page(CallListPage) },
                  { path: 'calls/new', element: page(NewCallPage) },
                  { path: 'calls/:callId', element: page(CallDetailPage) },
                  { path: 'calls/:callId/update', element: page(EditCallPage) },
                  { path: 'calls/:callId/manage', element: page(ManageCallPage) },
                  { path: 'calls/:callId/conflicts', element: page(CallConflictsPage) },
                  { path: 'calls/:callId/assignment', element: page(AssignmentPage) },
                  {
                    path: 'calls/:callId/assignment/matrix',
                    element: page(AssignmentMatrixPage),
                  },
                  { path: 'calls/:callId/bids', element: page(BidsPage) },
                  {
                    path: 'calls/:callId/progress',
                    element: page(ProgressPage),
                    // The 10,000-proposal call's first content within 1.5 s (bench figure (h)).
                    handle: prefetchOn((client, params) => {
                      const callId = idOf(params.callId);
                      if (callId === null) return;
                      void client.prefetchQuery(callDetailQuery(callId));
                      void client.prefetchQuery(callProgressQuery(callId));
                    }),
                  },
                  { path: 'calls/:callId/reminders', element: page(RemindersPage) },
                  {
                    path: 'calls/:callId/ranking',
                    element: page(RankingPage),
                    // The 10,000-proposal call's first content within 1.5 s (issue 29).
                    handle: prefetchOn((client, params, search) => {
                      const callId = idOf(params.callId);
                      if (callId === null) return;
                      void client.prefetchQuery(callDetailQuery(callId));
                      void client.prefetchQuery(callRankingQuery(callId, rankingFiltersOf(search)));
                    }),
                  },
                  { path: 'calls/:callId/letters', element: page(LettersPage) },
                  { path: 'calls/:callId/activity', element: page(CallActivityPage) },
                  { path: 'calls/:callId/new', element: page(NewProposalPage) },
                  {
                    path: 'calls/:callId/proposals',
                    element: page(CallProposalsPage),
                    handle: prefetchOn((client, params, search) => {
                      const callId = idOf(params.callId);
                      if (callId === null) return;
                      void client.prefetchQuery(callDetailQuery(callId));
                      const query = callProposalsQueryOfAddress(search);
                      void client.prefetchQuery(callProposalsPageQuery(callId, query));
                    }),
                  },
                  {
                    path: 'calls/:callId/proposals/:proposalId',
                    element: page(ProposalEditorPage),
                  },
                  // One page for both addresses of the review editor: a new review's first
                  // save moves it to its own address without leaving the page.
                  {
                    path: 'calls/:callId/proposals/:proposalId/review',
                    element: page(ReviewEditorPage),
                  },
                  {
                    path: 'calls/:callId/proposals/:proposalId/reviews',
                    element: page(ReviewListPage),
                  },
                  {
                    path: 'calls/:callId/proposals/:proposalId/reviews/:reviewId',
                    element: page(ReviewEditorPage),
                  },
                  { path: 'pending_reviews', element: page(PendingReviewsPage) },
                  { path: 'account', element: page(AccountPage) },
                  { path: 'account/change-password', element: page(ChangePasswordPage) },
                  {
                    element: <RequireArea area="admin" />,
                    children: [
                      { path: 'users', element: page(UserListPage) },
                      { path: 'users/:userId', element: page(UserDetailPage) },
                      { path: 'users/:userId/roles/new', element: page(NewRolePage) },
                      { path: 'users/:userId/roles/:roleId', element: page(EditRolePage) },
                      { path: 'committees', element: page(CommitteeListPage) },
                      { path: 'committees/new', element: page(NewCommitteePage) },
                      { path: 'committees/:committeeId', element: page(CommitteeDetailPage) },
                      { path: 'forms', element: page(FormBuilderPage) },
                      { path: 'forms/new', element: page(NewFormPage) },
                      { path: 'forms/:formId', element: page(EditFormPage) },
                      { path: 'admin/activity', element: page(AdminActivityPage) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        // Any path no route claims. Signed in, the page keeps the app frame to navigate on
        // from, as "Access denied" does; a visitor gets the plain page, not the login.
        element: <SessionOr visitor={<NotFoundView standalone />} />,
        children: [{ element: appFrame, children: [{ path: '*', element: <NotFoundView /> }] }],
      },
    ],
  },
];

/**
 * What a route asks the server for when the app starts on it, given the address's params
 * and search: the same queries (keys and all) its page asks, which then finds them in
 * flight or answered. Only for pages where the wait shows (bench figure (e)).
 */
type RoutePrefetch = (client: QueryClient, params: Params, search: URLSearchParams) => void;

interface RouteHandle {
  prefetch?: RoutePrefetch;
}

function prefetchOn(prefetch: RoutePrefetch): RouteHandle {
  return { prefetch };
}

/**
 * Signed in, asks for the first page's data as the app starts, beside its code: the user's
 * details and what the route names (its `handle.prefetch`). Otherwise each request waits
 * for the code and the answer before it (the app, the user's details, the shell and the
 * page, then the page's reads): the chair's list of a call asked for its rows 0.7-0.9 s
 * after navigation start, and got them 0.1 s later.
 */
export function prefetchFirstRoute(
  client: QueryClient,
  { pathname, search }: { pathname: string; search: string },
): void {
  // A visitor has nothing to ask; a tab still asking the others for the session asks later.
  if (getToken() === null) return;
  void client.prefetchQuery(currentUserQuery);
  const params = new URLSearchParams(search);
  for (const match of matchRoutes(routes, pathname) ?? []) {
    (match.route.handle as RouteHandle | undefined)?.prefetch?.(client, match.params, params);
  }
}

/** The lazy pages in a route's element: the page itself, and the shell around it. */
function lazyPagesIn(node: ReactNode, found: LazyPage[]): LazyPage[] {
  if (node === null || typeof node !== 'object' || !('props' in node)) return found;
  const { type, props } = node as { type: unknown; props: { children?: ReactNode } };
  if (
    (typeof type === 'function' || typeof type === 'object') &&
    type !== null &&
    'preload' in type
  )
    found.push(type as LazyPage);
  const children = props.children;
  for (const child of Array.isArray(children) ? children : [children]) lazyPagesIn(child, found);
  return found;
}

/**
 * Starts downloading the pages the first address shows, all at once, as the app starts:
 * otherwise each waits for the one around it to render (the guards, then the shell, then
 * the page), a round of requests each. Signed in, those of the address (the shell and its
 * page); a visitor is shown the login unless the address is one of the open auth pages.
 * Vite's preload of a chunk asks for its imports too, so this is one round of requests.
 * The login page's chunks are already named in index.html (preloadFirstPage in
 * vite.config.ts), so for a visitor this asks for nothing new in a build.
 *
 * Settles once all of it has arrived or failed. The app does not wait for that; component
 * tests do, so that a page's code is loaded before a test rather than inside its waits.
 */
export function preloadFirstRoute(pathname: string, signedIn: boolean): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  const pages = matches.flatMap((match) => lazyPagesIn(match.route.element, []));
  const open = matches.some((match) => match.route.path?.startsWith('auth/'));
  const wanted = signedIn || open ? pages : [LoginPage];
  // A failed download here is tried again, and reported, when the page renders.
  const loads: Promise<unknown>[] = wanted.map((page) => page.preload().catch(() => {}));
  // Signed in, the first render asks the API who this is, and the first answer needs the
  // contract's schemas: asked for now, they come with the pages instead of in a third
  // round after them. A visitor's login page needs them only on submit (and its budget).
  if (signedIn) loads.push(loadContract().catch(() => {}));
  return Promise.all(loads).then(() => {});
}
