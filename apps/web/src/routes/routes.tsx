import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Outlet, ScrollRestoration, type RouteObject } from 'react-router';
import { LoadingView } from '../components/LoadingView';
import { RouteErrorView, StandaloneRouteErrorView } from '../components/RouteErrorView';
import {
  RedirectIfSignedIn,
  RequireArea,
  RequireIncompleteRegistration,
  RequireSession,
} from '../features/auth/RouteGuards';

// Every page is its own chunk, and React.lazy downloads it only when it renders. So the
// guards (in the entry chunk) decide first: a visitor sent to login never downloads
// the shell or an admin page.
const LoginPage = lazy(() => import('./auth/LoginPage'));
const CompleteRegistrationPage = lazy(() => import('./auth/CompleteRegistrationPage'));
const AppShell = lazy(() => import('../features/shell/AppShell'));
const DashboardPage = lazy(() => import('./dashboard/DashboardPage'));
const CallListPage = lazy(() => import('./calls/CallListPage'));
const AccountPage = lazy(() => import('./account/AccountPage'));
const ChangePasswordPage = lazy(() => import('./account/ChangePasswordPage'));
const UserListPage = lazy(() => import('./users/UserListPage'));
const CommitteeListPage = lazy(() => import('./committees/CommitteeListPage'));
const FormBuilderPage = lazy(() => import('./forms/FormBuilderPage'));
const NotFoundPage = lazy(() => import('./errors/NotFoundPage'));

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
            element: (
              <RequireArea area="member">{page(AppShell, { standalone: true })}</RequireArea>
            ),
            children: [
              {
                // Inside the shell, so a failing page keeps the menu to navigate away.
                ErrorBoundary: RouteErrorView,
                children: [
                  { index: true, element: page(DashboardPage) },
                  { path: 'calls', element: page(CallListPage) },
                  { path: 'account', element: page(AccountPage) },
                  { path: 'account/change-password', element: page(ChangePasswordPage) },
                  {
                    element: <RequireArea area="admin" />,
                    children: [
                      { path: 'users', element: page(UserListPage) },
                      { path: 'committees', element: page(CommitteeListPage) },
                      { path: 'forms', element: page(FormBuilderPage) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: page(NotFoundPage, { standalone: true }) },
    ],
  },
];
