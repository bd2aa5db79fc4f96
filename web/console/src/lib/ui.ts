// Status messages, error handling and the page's timers.
import { EdgeApiError } from "@edged/client";
import { h } from "./dom";
import { forget } from "./session";

/** messageOf is the sentence to show for an error: the API's message when it has one. */
export function messageOf(err: unknown): string {
  if (err instanceof EdgeApiError) return `${err.apiMessage} (HTTP ${err.status})`;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** hooks the shell sets: what to do when the session ends. */
export const hooks = { rerender: (): void => undefined };

/**
 * notify shows a message in the status bar (role=status, so it is
 * announced). audit, the audit code the action writes, adds a link to
 * its entries in the audit log, newest first.
 */
export function notify(text: string, kind: "ok" | "error" = "ok", audit?: string): void {
  const bar = document.getElementById("status")!;
  bar.replaceChildren(text);
  if (audit) bar.append(" ", h("a", { href: `#/audit/${audit}`, class: "audit-link" }, `Audit entry (${audit})`));
  bar.className = kind;
}

/** guard runs an action, showing its error with the API's message. */
export async function guard<T>(action: () => Promise<T>): Promise<T | undefined> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof EdgeApiError && err.isUnauthorized) {
      forget(false);
      hooks.rerender();
      notify("Your session ended: " + err.apiMessage, "error");
      return undefined;
    }
    notify(messageOf(err), "error");
    return undefined;
  }
}

/** What the page shown has running; stopped when another page is shown. */
let cleanups: (() => void)[] = [];

export function onLeave(fn: () => void): void {
  cleanups.push(fn);
}

export function leavePage(): void {
  cleanups.forEach((fn) => fn());
  cleanups = [];
}

/** every runs fn now and every ms while the page is shown, never twice at once. */
export function every(ms: number, fn: () => Promise<void>): void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await fn();
    } finally {
      running = false;
    }
  };
  void tick();
  const id = window.setInterval(tick, ms);
  onLeave(() => clearInterval(id));
}

/** Refresh interval of live pages, ms. */
export const REFRESH_MS = 2000;

/** confirmAction asks before something that cannot be undone. */
export const confirmAction = (q: string): boolean => window.confirm(q);
