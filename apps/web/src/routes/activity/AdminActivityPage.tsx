import { ActivityView } from '../../features/activity/ActivityView';

/**
 * /admin/activity (admins only): the whole system's Activity (issue 28), the audit rows
 * and the security log's events (logins, two-step changes, role changes, exports) together.
 */
export default function AdminActivityPage() {
  return <ActivityView scope="all" label="Activity of the whole system" />;
}
