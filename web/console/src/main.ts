// The operator console of edged: a browser client of the gateway's API,
// written on the project's TypeScript SDK (@edged/client) as users install
// it. Every call goes through EdgeClient; errors from the API are shown with
// their message. Pages are chosen by the URL's fragment (#/assets, …), so
// the browser's back button and bookmarks work.
import { EdgeApiError, EdgeClient, type Schema } from "@edged/client";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import "./console.css";

const edge = new EdgeClient({ baseUrl: location.origin, retries: 1 });
const TOKEN_KEY = "edged.console.token";
const ADMIN_KEY = "edged.console.admin";

/** Refresh interval of live pages (dashboard, asset plot), ms. */
const REFRESH_MS = 2000;

// ---------------------------------------------------------------------------
// DOM helpers

type Attrs = Record<string, string | boolean | number | undefined | ((ev: Event) => void)>;

/** h builds an element with attributes (on* are listeners) and children. */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Node | string | null | undefined | false)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

let uid = 0;
/** field returns a labelled control: the label names the input for screen readers. */
function field(label: string, input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  input.id ||= `f${++uid}`;
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, hint ? h("small", {}, hint) : null);
}

/** messageOf is the sentence to show for an error: the API's message when it has one. */
function messageOf(err: unknown): string {
  if (err instanceof EdgeApiError) return `${err.apiMessage} (HTTP ${err.status})`;
  if (err instanceof Error) return err.message;
  return String(err);
}

const main = (): HTMLElement => document.getElementById("main")!;
const statusBar = (): HTMLElement => document.getElementById("status")!;

/** notify shows a message in the status bar (role=status, so it is announced). */
function notify(text: string, kind: "ok" | "error" = "ok"): void {
  const bar = statusBar();
  bar.textContent = text;
  bar.className = kind;
}

/** guard runs an action, showing its error with the API's message. */
async function guard<T>(action: () => Promise<T>): Promise<T | undefined> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof EdgeApiError && err.isUnauthorized) {
      logout(false);
      notify("Your session ended: " + err.apiMessage, "error");
      return undefined;
    }
    notify(messageOf(err), "error");
    return undefined;
  }
}

function table(headers: string[], rows: (Node | string)[][], caption?: string): HTMLTableElement {
  return h("table", {},
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, ...headers.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", {}, c))))));
}

const fmtTime = (d: Date | string | undefined): string => (d instanceof Date ? d.toISOString().replace("T", " ").replace("Z", "") : d ?? "");

// ---------------------------------------------------------------------------
// Session

function loggedIn(): boolean {
  return edge.token !== undefined;
}

function logout(callApi: boolean): void {
  if (callApi && edge.token) void edge.logout().catch(() => undefined);
  edge.token = undefined;
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(ADMIN_KEY);
  render();
}

function loginPage(): HTMLElement {
  const user = h("input", { name: "username", autocomplete: "username", required: true });
  const pass = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "login", "aria-label": "Log in" },
    h("h1", {}, "edged console"),
    field("User name", user), field("Password", pass),
    h("button", { type: "submit" }, "Log in"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      const res = await edge.login(user.value, pass.value);
      sessionStorage.setItem(TOKEN_KEY, res.token);
      sessionStorage.setItem(ADMIN_KEY, String(res.admin));
      notify(`Logged in as ${user.value}`);
      if (!location.hash || location.hash === "#/login") location.hash = "#/dashboard";
      render();
    });
  });
  return form;
}

// ---------------------------------------------------------------------------
// Pages

/** timers of the page shown; cleared when another page is rendered. */
let timers: number[] = [];
let plots: uPlot[] = [];

function every(ms: number, fn: () => Promise<void>): void {
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
  timers.push(window.setInterval(tick, ms));
}

async function dashboard(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Dashboard"));
  const health = h("section", { "aria-label": "Health" });
  const rates = h("section", { "aria-label": "Rates" });
  const services = h("section", { "aria-label": "Services" });
  root.append(h("div", { class: "cards" }, health, rates), services);
  every(REFRESH_MS, async () => {
    await guard(async () => {
      const ping = await edge.get("/edge/ping");
      health.replaceChildren(h("h2", {}, "Health"),
        h("p", { class: `health ${ping.health}` }, ping.health),
        h("dl", {},
          h("dt", {}, "Gateway"), h("dd", {}, ping.serviceName),
          h("dt", {}, "Version"), h("dd", {}, ping.version),
          h("dt", {}, "Uptime"), h("dd", {}, `${Math.round(ping.uptime)} s`),
          h("dt", {}, "Readings read"), h("dd", {}, String(ping.dataRead)),
          h("dt", {}, "Readings sent"), h("dd", {}, String(ping.dataSent)),
          h("dt", {}, "Readings purged"), h("dd", {}, String(ping.dataPurged))));
      // Ingest (READINGS) and every north service's or task's send rate
      // (the statistic named after it, once it exists).
      const [north, counters] = await Promise.all([edge.get("/edge/north"), edge.get("/edge/statistics")]);
      const known = new Set(counters.map((c) => c.key));
      const sent = north.services.map((n) => n.name).filter((n) => known.has(n));
      const names = new Map<string, string>([["READINGS", "Ingested"], ["DISCARDED", "Discarded"], ...sent.map((n): [string, string] => [n, `Sent by ${n}`])]);
      const r = await edge.get("/edge/statistics/rate", { params: { query: { statistics: [...names.keys()].join(","), periods: "1,5,15" } } });
      const rows = [...names].map(([k, label]) => [label, ...["1", "5", "15"].map((p) => (r.rates[k]?.[p] ?? 0).toFixed(1))]);
      rates.replaceChildren(h("h2", {}, "Rates (readings per minute)"), table(["Rate", "1 min", "5 min", "15 min"], rows));
      const list = await edge.get("/edge/service");
      services.replaceChildren(h("h2", {}, "Services"),
        table(["Name", "Type", "Status"], list.services.map((s) => [s.name, s.type, h("span", { class: `st ${s.status}` }, s.status)])));
    });
  });
}

async function assets(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Assets"));
  const body = h("div");
  root.append(body);
  every(REFRESH_MS * 2, async () => {
    await guard(async () => {
      const list = await edge.get("/edge/asset");
      body.replaceChildren(list.length === 0 ? h("p", {}, "No asset has readings yet.") :
        table(["Asset", "Readings"], list.map((a) => [h("a", { href: `#/asset/${encodeURIComponent(a.assetCode)}` }, a.assetCode), String(a.count)])));
    });
  });
}

/** Windows of the asset plot: the query window and the series' bucket. */
const windows = [
  { label: "Last 10 minutes", query: { minutes: 10 }, group: "seconds" },
  { label: "Last hour", query: { hours: 1 }, group: "seconds" },
  { label: "Last 24 hours", query: { hours: 24 }, group: "minutes" },
  { label: "Last 7 days", query: { hours: 168 }, group: "hours" },
] as const;

async function assetPage(root: HTMLElement, code: string): Promise<void> {
  root.append(h("h1", {}, `Asset ${code}`), h("p", {}, h("a", { href: "#/assets" }, "All assets")));
  const latest = await guard(() => edge.get("/edge/asset/{code}", { params: { path: { code }, query: { limit: 1 } } }));
  const keys = latest?.[0] ? Object.keys(latest[0].reading).filter((k) => typeof latest[0]!.reading[k] === "number") : [];
  const win = h("select", { name: "window" }, ...windows.map((w, i) => h("option", { value: String(i) }, w.label)));
  const pick = h("fieldset", {}, h("legend", {}, "Datapoints"),
    ...keys.map((k, i) => {
      const box = h("input", { type: "checkbox", name: "datapoint", value: k, checked: i < 3 });
      box.id = `dp-${k}`;
      return h("label", { for: box.id, class: "inline" }, box, ` ${k}`);
    }));
  const plotBox = h("div", { class: "plot", role: "img", "aria-label": `Plot of asset ${code}` });
  root.append(h("div", { class: "controls" }, field("Window", win), pick), plotBox);

  const draw = async () => {
    const w = windows[Number(win.value)]!;
    const chosen = [...pick.querySelectorAll<HTMLInputElement>("input:checked")].map((b) => b.value);
    if (chosen.length === 0) {
      plotBox.replaceChildren(h("p", {}, "Choose a datapoint to plot."));
      return;
    }
    const series = await Promise.all(chosen.map((reading) => edge.get("/edge/asset/{code}/{reading}/series",
      { params: { path: { code, reading }, query: { ...w.query, group: w.group } } })));
    // Align the series on their buckets' times (seconds since the epoch).
    const times = [...new Set(series.flatMap((s) => s.map((e) => e.timestamp.getTime() / 1000)))].sort((a, b) => a - b);
    const index = new Map(times.map((t, i) => [t, i]));
    const data: uPlot.AlignedData = [times, ...series.map((s) => {
      const col: (number | null)[] = new Array(times.length).fill(null);
      for (const e of s) col[index.get(e.timestamp.getTime() / 1000)!] = e.average;
      return col;
    })];
    plotBox.dataset.points = String(times.length);
    const width = Math.max(320, plotBox.clientWidth || root.clientWidth - 16);
    const old = plots[0];
    if (old && old.series.length === chosen.length + 1 && plotBox.dataset.keys === chosen.join(",")) {
      old.setData(data);
      return;
    }
    plots.forEach((p) => p.destroy());
    plotBox.replaceChildren();
    plotBox.dataset.keys = chosen.join(",");
    const colours = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"];
    plots = [new uPlot({
      width, height: 320,
      series: [{}, ...chosen.map((k, i) => ({ label: k, stroke: colours[i % colours.length], width: 1.5, spanGaps: false }))],
      axes: [{}, {}],
    }, data, plotBox)];
  };
  win.addEventListener("change", () => void guard(draw));
  pick.addEventListener("change", () => void guard(draw));
  every(REFRESH_MS, async () => void (await guard(draw)));

  // The readings, a page at a time.
  const pageSize = 20;
  let skip = 0;
  const readings = h("div", { "aria-live": "polite" });
  const prev = h("button", { type: "button" }, "Newer");
  const next = h("button", { type: "button" }, "Older");
  const show = async () => {
    const page = await edge.get("/edge/asset/{code}", { params: { path: { code }, query: { limit: pageSize, skip } } });
    readings.replaceChildren(table(["Time", "Reading"], page.map((r) => [fmtTime(r.timestamp), JSON.stringify(r.reading)]),
      `Readings ${skip + 1}–${skip + page.length}`));
    prev.disabled = skip === 0;
    next.disabled = page.length < pageSize;
  };
  prev.addEventListener("click", () => { skip = Math.max(0, skip - pageSize); void guard(show); });
  next.addEventListener("click", () => { skip += pageSize; void guard(show); });
  root.append(h("h2", {}, "Readings"), readings, h("div", { class: "pager" }, prev, next));
  await guard(show);
}

async function servicesPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Services"));
  const list = h("div");
  const name = h("input", { name: "name", required: true });
  const type = h("select", { name: "type" }, h("option", { value: "south" }, "South"), h("option", { value: "north" }, "North"));
  const plugin = h("input", { name: "plugin", required: true, list: "plugins" });
  const plugins = h("datalist", { id: "plugins" });
  const enabled = h("input", { type: "checkbox", name: "enabled", checked: true });
  enabled.id = "svc-enabled";
  const form = h("form", { "aria-label": "Create a service" }, h("h2", {}, "Create a service"),
    field("Name", name), field("Type", type),
    field("Plugin", plugin, "Suggested: the plugins of this type that services here already use. Creating the service opens its configuration: the plugin's items, each with an input of its type."), plugins,
    h("div", { class: "field" }, h("label", { for: enabled.id, class: "inline" }, enabled, " Enabled")),
    h("button", { type: "submit" }, "Create"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      const res = await edge.post("/edge/service", { body: { name: name.value, type: type.value as "south" | "north", plugin: plugin.value, enabled: enabled.checked } });
      notify(res.message);
      location.hash = `#/config/${encodeURIComponent(name.value)}`;
    });
  });
  root.append(list, form);
  // The plugins services of each type already use, as suggestions.
  const used: Record<"south" | "north", Set<string>> = { south: new Set(), north: new Set() };
  const suggest = () => plugins.replaceChildren(...[...used[type.value as "south" | "north"]].sort().map((p) => h("option", { value: p })));
  type.addEventListener("change", suggest);
  const refresh = async () => {
    const [all, south, north] = await Promise.all([edge.get("/edge/service"), edge.get("/edge/south"), edge.get("/edge/north")]);
    used.south = new Set(south.services.map((s) => s.plugin.name));
    used.north = new Set(north.services.filter((n) => n.type === "service").map((n) => n.plugin.name));
    suggest();
    const rows = all.services.filter((s) => s.type !== "Core" && s.type !== "Storage").map((s) => {
      const act = (label: string, fn: () => Promise<{ message: string }>) =>
        h("button", { type: "button", onclick: () => void guard(async () => { notify((await fn()).message); await refresh(); }) }, label);
      return [h("a", { href: `#/config/${encodeURIComponent(s.name)}` }, s.name), s.type, h("span", { class: `st ${s.status}` }, s.status),
        h("span", { class: "actions" },
          act("Enable", () => edge.put("/edge/schedule/enable", { body: { schedule_name: s.name } })),
          act("Disable", () => edge.put("/edge/schedule/disable", { body: { schedule_name: s.name } })),
          act("Delete", async () => {
            if (!confirm(`Delete service ${s.name}?`)) return { message: "Not deleted" };
            return edge.delete("/edge/service/{service_name}", { params: { path: { service_name: s.name } } });
          }))];
    });
    list.replaceChildren(table(["Name", "Type", "Status", "Actions"], rows));
  };
  await guard(refresh);
}

async function categoriesPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Configuration"));
  const list = await guard(() => edge.get("/edge/category"));
  if (!list) return;
  root.append(table(["Category", "Description"], list.categories.map((c) => [h("a", { href: `#/config/${encodeURIComponent(c.key)}` }, c.key), c.description])));
}

/** input returns the control of a configuration item, by its type. */
function itemInput(name: string, item: Schema<"ConfigItem">): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  const common = { name, "data-item": name, readonly: item.readonly === "true", required: item.mandatory === "true" };
  switch (item.type) {
    case "boolean": {
      const s = h("select", common, h("option", { value: "true" }, "true"), h("option", { value: "false" }, "false"));
      s.value = item.value;
      return s;
    }
    case "enumeration": {
      const s = h("select", common, ...(item.options ?? []).map((o) => h("option", { value: o }, o)));
      s.value = item.value;
      return s;
    }
    case "JSON": {
      const t = h("textarea", { ...common, rows: 4, spellcheck: "false" });
      t.value = item.value;
      return t;
    }
    case "integer":
      return h("input", { ...common, type: "number", step: 1, value: item.value, min: item.minimum, max: item.maximum });
    case "float":
      return h("input", { ...common, type: "number", step: "any", value: item.value, min: item.minimum, max: item.maximum });
    case "password":
      return h("input", { ...common, type: "password", autocomplete: "new-password", placeholder: "unchanged" });
    case "URL":
      return h("input", { ...common, type: "url", value: item.value });
    default: // string, IPv4, IPv6
      return h("input", { ...common, type: "text", value: item.value, maxlength: item.length });
  }
}

async function categoryPage(root: HTMLElement, name: string): Promise<void> {
  root.append(h("h1", {}, `Configuration: ${name}`), h("p", {}, h("a", { href: "#/config" }, "All categories")));
  const cat = await guard(() => edge.get("/edge/category/{name}", { params: { path: { name } } }));
  if (!cat) return;
  const entries = Object.entries(cat).sort(([, a], [, b]) => Number(a.order ?? 0) - Number(b.order ?? 0));
  const form = h("form", { "aria-label": `Items of ${name}`, class: "items" });
  for (const [key, item] of entries) {
    const input = itemInput(key, item);
    const err = h("small", { class: "error", "aria-live": "polite" });
    input.setAttribute("aria-describedby", (err.id = `err-${key}`));
    const save = h("button", { type: "button", disabled: item.readonly === "true" }, "Save");
    save.setAttribute("aria-label", `Save ${item.displayName ?? key}`);
    save.addEventListener("click", () => void (async () => {
      err.textContent = "";
      if (item.type === "password" && input.value === "") return;
      try {
        const res = await edge.put("/edge/category/{name}/{item}", { params: { path: { name, item: key } }, body: { value: input.value } });
        notify(`${name}.${key} is now ${item.type === "password" ? "changed" : res.value}`);
      } catch (e) {
        err.textContent = messageOf(e); // the item's validation error, beside it
        await guard(() => Promise.reject(e));
      }
    })());
    form.append(h("div", { class: "item" }, field(`${item.displayName ?? key} (${item.type})`, input, item.description), save, err));
  }
  root.append(form);
}

/** The audit severities of the contract (AuditSeverity). */
const severities: Schema<"AuditSeverity">[] = ["SUCCESS", "FAILURE", "WARNING", "INFORMATION"];

async function auditPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Audit log"));
  const source = h("input", { name: "source", placeholder: "e.g. CONCH", maxlength: 5, autocapitalize: "characters" });
  const severity = h("select", { name: "severity" }, h("option", { value: "" }, "Any"), ...severities.map((s) => h("option", { value: s }, s)));
  const out = h("div", { "aria-live": "polite" });
  const pageSize = 25;
  let skip = 0;
  const prev = h("button", { type: "button" }, "Newer");
  const next = h("button", { type: "button" }, "Older");
  const show = async () => {
    const query: Record<string, string | number> = { limit: pageSize, skip };
    if (source.value) query.source = source.value.trim().toUpperCase();
    if (severity.value) query.severity = severity.value;
    const page = await edge.get("/edge/audit", { params: { query: query as never } });
    out.replaceChildren(table(["Time", "Source", "Severity", "Details"],
      page.audit.map((e) => [fmtTime(e.timestamp), e.source, e.severity, JSON.stringify(e.details)]), `${page.totalCount} entries`));
    prev.disabled = skip === 0;
    next.disabled = skip + page.audit.length >= page.totalCount;
  };
  source.addEventListener("change", () => { skip = 0; void guard(show); });
  severity.addEventListener("change", () => { skip = 0; void guard(show); });
  prev.addEventListener("click", () => { skip = Math.max(0, skip - pageSize); void guard(show); });
  next.addEventListener("click", () => { skip += pageSize; void guard(show); });
  root.append(h("div", { class: "controls" }, field("Source", source), field("Severity", severity)), out, h("div", { class: "pager" }, prev, next));
  await guard(show);
}

async function tasksPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Tasks"));
  const page = await guard(() => edge.get("/edge/task", { params: { query: { limit: 50 } } }));
  if (!page) return;
  root.append(table(["Name", "Process", "State", "Started", "Ended", "Reason"],
    page.tasks.map((t) => [t.name, t.processName, t.state, fmtTime(t.startTime), fmtTime(t.endTime), t.reason])));
}

async function usersPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Users and roles"));
  if (sessionStorage.getItem(ADMIN_KEY) !== "true") {
    root.append(h("p", {}, "Only admin users manage users and roles."));
    return;
  }
  const roles = await guard(() => edge.get("/edge/user/role"));
  const users = h("div");
  const refresh = async () => {
    const list = await edge.get("/edge/user");
    const roleName = new Map((roles?.roles ?? []).map((r) => [r.id, r.name]));
    users.replaceChildren(table(["Id", "User", "Role", "Real name", ""], list.users.map((u) => [String(u.userId), u.userName, roleName.get(u.roleId) ?? String(u.roleId), u.realName,
      h("button", { type: "button", onclick: () => void guard(async () => {
        if (!confirm(`Delete user ${u.userName}?`)) return;
        notify((await edge.delete("/edge/admin/{user_id}/delete", { params: { path: { user_id: u.userId } } })).message);
        await refresh();
      }) }, "Delete")])));
  };
  const uname = h("input", { name: "new-username", required: true, autocomplete: "off" });
  const pw = h("input", { name: "new-password", type: "password", required: true, autocomplete: "new-password" });
  const role = h("select", { name: "role" }, ...(roles?.roles ?? []).map((r) => h("option", { value: String(r.id) }, r.name)));
  const form = h("form", { "aria-label": "Create a user" }, h("h2", {}, "Create a user"), field("User name", uname), field("Password", pw), field("Role", role), h("button", { type: "submit" }, "Create"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      const res = await edge.post("/edge/admin/user", { body: { username: uname.value, password: pw.value, role_id: Number(role.value) } });
      notify(`User ${res.userName} created`);
      await refresh();
    });
  });
  root.append(users, table(["Role", "Description"], (roles?.roles ?? []).map((r) => [r.name, r.description]), "Roles"), form);
  await guard(refresh);
}

// ---------------------------------------------------------------------------
// Shell

const nav: [string, string][] = [
  ["#/dashboard", "Dashboard"], ["#/assets", "Assets"], ["#/services", "Services"], ["#/config", "Configuration"],
  ["#/audit", "Audit"], ["#/tasks", "Tasks"], ["#/users", "Users"],
];

function render(): void {
  timers.forEach((t) => clearInterval(t));
  timers = [];
  plots.forEach((p) => p.destroy());
  plots = [];
  const root = main();
  root.replaceChildren();
  const menu = document.getElementById("nav")!;
  if (!loggedIn()) {
    menu.replaceChildren();
    root.append(loginPage());
    root.querySelector("input")?.focus();
    return;
  }
  const route = location.hash || "#/dashboard";
  menu.replaceChildren(h("ul", {}, ...nav.map(([href, label]) => h("li", {},
    h("a", { href, "aria-current": route.startsWith(href) ? "page" : undefined }, label))),
    h("li", {}, h("button", { type: "button", onclick: () => logout(true) }, "Log out"))));
  const [, page, arg] = /^#\/([a-z]+)(?:\/(.*))?$/.exec(route) ?? [];
  const param = arg ? decodeURIComponent(arg) : "";
  const pages: Record<string, () => Promise<void>> = {
    dashboard: () => dashboard(root), assets: () => assets(root), asset: () => assetPage(root, param),
    services: () => servicesPage(root), config: () => (param ? categoryPage(root, param) : categoriesPage(root)),
    audit: () => auditPage(root), tasks: () => tasksPage(root), users: () => usersPage(root),
  };
  void (pages[page ?? "dashboard"] ?? pages.dashboard!)();
}

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) edge.token = saved;
window.addEventListener("hashchange", render);
render();
