// The operator console of edged: a browser client of the gateway's API,
// written on the project's TypeScript SDK (@edged/client) as users install
// it. Every call goes through EdgeClient; errors from the API are shown with
// their message. This file is the shell: the menu and the routes; each page
// is a module of pages/, the shared helpers are in lib/.
import "uplot/dist/uPlot.min.css";
import "./console.css";
import { h } from "./lib/dom";
import { forget, loggedIn } from "./lib/session";
import { hooks, leavePage } from "./lib/ui";
import { parse, type Route } from "./router";
import { assetPage, assetsPage } from "./pages/assets";
import { auditPage } from "./pages/audit";
import { configPage } from "./pages/config";
import { dashboard } from "./pages/dashboard";
import { loginPage } from "./pages/login";
import { servicesPage } from "./pages/services";
import { tasksPage } from "./pages/tasks";
import { usersPage } from "./pages/users";
import { backupsPage } from "./pages/backups";
import { controlPage } from "./pages/control";
import { filtersPage } from "./pages/filters";
import { fleetPage } from "./pages/fleet";
import { logsPage } from "./pages/logs";
import { northPage } from "./pages/north";
import { notificationsPage } from "./pages/notifications";
import { packagesPage } from "./pages/packages";

const routes: Route[] = [
  { path: "dashboard", label: "Dashboard", page: dashboard },
  { path: "assets", label: "Assets", page: assetsPage },
  { path: "asset", page: assetPage },
  { path: "services", label: "Services", page: servicesPage },
  { path: "filters", label: "Filters", page: filtersPage },
  { path: "north", label: "North", page: northPage },
  { path: "notifications", label: "Notifications", page: notificationsPage },
  { path: "control", label: "Control", page: controlPage },
  { path: "config", label: "Configuration", page: configPage },
  { path: "document", label: "Export/apply", page: fleetPage },
  { path: "backups", label: "Backups", page: backupsPage },
  { path: "logs", label: "Logs", page: logsPage },
  { path: "packages", label: "Packages", page: packagesPage },
  { path: "audit", label: "Audit", page: auditPage },
  { path: "tasks", label: "Tasks", page: tasksPage },
  { path: "users", label: "Users", page: usersPage },
];

function render(): void {
  leavePage();
  const root = document.getElementById("main")!;
  root.replaceChildren();
  const menu = document.getElementById("nav")!;
  if (!loggedIn()) {
    menu.replaceChildren();
    root.append(loginPage());
    root.querySelector("input")?.focus();
    return;
  }
  const { name, arg } = parse(location.hash);
  const route = routes.find((r) => r.path === name) ?? routes[0]!;
  menu.replaceChildren(h("ul", {}, ...routes.filter((r) => r.label).map((r) => h("li", {},
    h("a", { href: `#/${r.path}`, "aria-current": r === route ? "page" : undefined }, r.label!))),
    h("li", {}, h("button", { type: "button", onclick: () => { forget(true); render(); } }, "Log out"))));
  void route.page(root, arg);
}

hooks.rerender = render;
window.addEventListener("hashchange", render);
render();
