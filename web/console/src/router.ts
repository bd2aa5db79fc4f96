// The router: pages are chosen by the URL's fragment (#/page/arg), so the
// browser's back button and bookmarks work.

/** A page renders itself into root; arg is the fragment's decoded rest. */
export type Page = (root: HTMLElement, arg: string) => Promise<void>;

export interface Route {
  path: string;
  label?: string; // shown in the menu when set
  page: Page;
}

/** parse splits a fragment into its page name and argument. */
export function parse(hash: string): { name: string; arg: string } {
  const [, name, arg] = /^#\/([a-z-]+)(?:\/(.*))?$/.exec(hash) ?? [];
  return { name: name ?? "", arg: arg ? decodeURIComponent(arg) : "" };
}
