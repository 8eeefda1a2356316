import DashboardIcon from '@mui/icons-material/Dashboard';
import DescriptionIcon from '@mui/icons-material/Description';
import DynamicFormIcon from '@mui/icons-material/DynamicForm';
import GroupsIcon from '@mui/icons-material/Groups';
import HistoryIcon from '@mui/icons-material/History';
import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import RateReviewIcon from '@mui/icons-material/RateReview';
import type { ReactElement } from 'react';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactElement;
  /** Highlight only on this exact path (the dashboard would match everything). */
  end?: boolean;
}

/** Spec section 2, Navigation: the side menu of every signed-in user. */
export const memberNavItems: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: <DashboardIcon />, end: true },
  { to: '/calls', label: 'Call for Proposals', icon: <DescriptionIcon /> },
  { to: '/account', label: 'My Account', icon: <PersonIcon /> },
];

/** ...and for current committee members (chairs and admins too): their reviews to do. */
export const reviewerNavItems: NavItem[] = [
  { to: '/pending_reviews/', label: 'My Pending Reviews', icon: <RateReviewIcon /> },
];

/** ...and for admins only. */
export const adminNavItems: NavItem[] = [
  { to: '/users', label: 'Manage Users', icon: <PeopleIcon /> },
  { to: '/committees', label: 'Manage Committees', icon: <GroupsIcon /> },
  { to: '/forms', label: 'Form Builder', icon: <DynamicFormIcon /> },
  { to: '/admin/activity', label: 'Activity', icon: <HistoryIcon /> },
];
