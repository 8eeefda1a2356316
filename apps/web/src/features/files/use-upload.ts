import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { useNotify } from '../../components/notifications/notification-context';
import { uploaderFor, type UploadTarget } from './uploader';

/**
 * A view's handle on the uploads of `key` (see uploaderFor): the upload under way, the
 * files finished since the view last took them, and `start`, which tells of failures in
 * the app's notifications (spec section 8).
 */
export function useUpload(key: string, target: UploadTarget) {
  const uploader = uploaderFor(key, target);
  const snapshot = useSyncExternalStore(uploader.subscribe, uploader.getSnapshot);
  const notify = useNotify();
  const client = useQueryClient();
  const start = useCallback(
    (file: File) => uploader.start(file, { notify, client }),
    [uploader, notify, client],
  );
  return { ...snapshot, start, take: uploader.take };
}
