import { api } from '../api/client';
import { session } from './session';

/**
 * On load: the cookie may hold a session (a reload, a new tab); ask the API, which also renews the
 * idle timeout. A 401 goes through the client's 401 rule (`session.expire()`).
 */
export async function restoreSession(): Promise<void> {
  try {
    const result = await api.GET('/api/auth/session');
    if (result.data) session.signIn(result.data);
    else if (result.response.status !== 401) session.unknown();
  } catch {
    session.unknown();
  }
}
