// The session: the SDK client and what the login answered.
import { EdgeClient } from "@edged/client";

export const edge = new EdgeClient({ baseUrl: location.origin, retries: 1 });
const TOKEN_KEY = "edged.console.token";
const ADMIN_KEY = "edged.console.admin";

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) edge.token = saved;

export const loggedIn = (): boolean => edge.token !== undefined;
/** isAdmin: the logged-in user is an admin (the login's answer). */
export const isAdmin = (): boolean => sessionStorage.getItem(ADMIN_KEY) === "true";

export function remember(token: string, admin: boolean): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(ADMIN_KEY, String(admin));
}

export function forget(callApi: boolean): void {
  if (callApi && edge.token) void edge.logout().catch(() => undefined);
  edge.token = undefined;
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(ADMIN_KEY);
}
