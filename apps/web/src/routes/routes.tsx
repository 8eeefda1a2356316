import {
  lazy,
  Suspense,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { Outlet, ScrollRestoration, type RouteObject } from 'react-router';
import { LoadingView } from '../components/LoadingView';
import { NotFoundView } from '../components/NotFoundView';
import { RouteErrorView, StandaloneRouteErrorView } from '../components/RouteErrorView';
import {
  RedirectIfSignedIn,
  RequireArea,
  RequireIncompleteRegistration,
  RequireSession,
} from '../features/auth/RouteGuards';
import { useToken } from '../features/auth/session-hooks';

// Every page is its own chunk, and React.lazy downloads it only when it renders. So the
// guards (in the entry chunk) decide first: a visitor sent to login never downloads
// the shell or an admin page.
const LoginPage = lazy(() => import('./auth/LoginPage'));
const RegisterPage = lazy(() => import('./auth/RegisterPage'));
const RegisterCompletePage = lazy(() => import('./auth/RegisterCompletePage'));
const ResendVerificationPage = lazy(() => import('./auth/ResendVerificationPage'));
const VerifyEmailPage = lazy(() => import('./auth/VerifyEmailPage'));
const PasswordResetPage = lazy(() => import('./auth/PasswordResetPage'));
const PasswordResetConfirmPage = lazy(() => import('./auth/PasswordResetConfirmPage'));
const OidcCompletePage = lazy(() => import('./auth/OidcCompletePage'));
const OidcErrorPage = lazy(() => import('./auth/OidcErrorPage'));
const CompleteRegistrationPage = lazy(() => import('./auth/CompleteRegistrationPage'));
const AppShell = lazy(() => import('../features/shell/AppShell'));
const DashboardPage = lazy(() => import('./dashboard/DashboardPage'));
const CallListPage = lazy(() => import('./calls/CallListPage'));
const CallDetailPage = lazy(() => import('./calls/CallDetailPage'));
const ManageCallPage = lazy(() => import('./calls/ManageCallPage'));
// The wizard brings the rich-text editor (TipTap), as its own chunk on top.
const NewCallPage = lazy(() => import('./calls/NewCallPage'));
const EditCallPage = lazy(() => import('./calls/EditCallPage'));
const NewProposalPage = lazy(() => import('./proposals/NewProposalPage'));
const CallProposalsPage = lazy(() => import('./proposals/CallProposalsPage'));
// The editor brings react-jsonschema-form and the form validator: only its route loads them.
const ProposalEditorPage = lazy(() => import('./proposals/ProposalEditorPage'));
// The review editor brings react-jsonschema-form, as the proposal editor does.
const ReviewEditorPage = lazy(() => import('./reviews/ReviewEditorPage'));
const ReviewListPage = lazy(() => import('./reviews/ReviewListPage'));
const PendingReviewsPage = lazy(() => import('./reviews/PendingReviewsPage'));
const AccountPage = lazy(() => import('./account/AccountPage'));
const ChangePasswordPage = lazy(() => import('./account/ChangePasswordPage'));
const UserListPage = lazy(() => import('./users/UserListPage'));
const UserDetailPage = lazy(() => import('./users/UserDetailPage'));
const NewRolePage = lazy(() => import('./users/NewRolePage'));
const EditRolePage = lazy(() => import('./users/EditRolePage'));
const CommitteeListPage = lazy(() => import('./committees/CommitteeListPage'));
const NewCommitteePage = lazy(() => import('./committees/NewCommitteePage'));
const CommitteeDetailPage = lazy(() => import('./committees/CommitteeDetailPage'));
const FormBuilderPage = lazy(() => import('./forms/FormBuilderPage'));
// The form editor brings the JSON editors and react-jsonschema-form: only its own route
// downloads them.
const NewFormPage = lazy(() => import('./forms/NewFormPage'));
const EditFormPage = lazy(() => import('./forms/EditFormPage'));

/** A lazy page with the loading view while its code downloads. */
function page(Page: LazyExoticComponent<ComponentType>, { standalone = false } = {}) {
  return (
    <Suspense fallback={<LoadingView standalone={standalone} />}>
      <Page />
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
                  { path: 'calls/:callId/new', element: page(NewProposalPage) },
                  { path: 'calls/:callId/proposals', element: page(CallProposalsPage) },
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
