// Packages: the repository (admin), available and installed packages and
// plugins, install, update and remove, following the task and its log.
import { button, field, fmtTime, h, table } from "../lib/dom";
import { edge, isAdmin } from "../lib/session";
import { confirmAction, guard, notify, onLeave } from "../lib/ui";

export async function packagesPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Packages"));
  if (!isAdmin()) {
    root.append(h("p", {}, "Only admin users manage packages."));
    return;
  }
  const repo = h("input", { name: "repository", type: "url", required: true, placeholder: "https://packages.example.com/edged" });
  const pin = h("input", { name: "repository-version", placeholder: "newest" });
  const repoForm = h("form", { "aria-label": "Package repository" }, h("h2", {}, "Repository"), field("Repository URL", repo), field("Version (optional)", pin),
    h("button", { type: "submit" }, "Save"));
  repoForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      const r = await edge.post("/edge/repository", { body: { url: repo.value, ...(pin.value ? { version: pin.value } : {}) } });
      notify(r.message, "ok", "PKGIN");
      await refresh();
    });
  });
  const installed = h("div");
  const available = h("div");
  const task = h("section", { class: "panel", "aria-live": "polite", "aria-label": "Task" });
  let stop = false;
  onLeave(() => { stop = true; });
  /** follow polls the task until it ends, showing its state and log. */
  const follow = async (id: string, log: string | undefined, what: string) => {
    const out = h("pre", { class: "log", tabindex: 0, "aria-label": "Task log" });
    const state = h("p", {});
    task.replaceChildren(h("h2", {}, what), state, out);
    for (;;) {
      if (stop) return;
      const t = await edge.get("/edge/task/{id}", { params: { path: { id } } });
      state.textContent = `Task ${t.id} (${t.processName}): ${t.state}${t.reason ? ` — ${t.reason}` : ""}, started ${fmtTime(t.startTime)}`;
      state.dataset.state = t.state;
      if (log) {
        const l = await edge.get("/edge/package/log/{name}", { params: { path: { name: log } } }).catch(() => undefined);
        if (l) out.textContent = l.lines.join("\n");
      }
      if (t.state !== "Running") break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    await refresh();
  };
  // A service package (notification, dispatcher) installs through the
  // services' install, a plugin package through the plugins'.
  const install = (name: string, service = false) => void guard(async () => {
    const r = service
      ? await edge.post("/edge/service", { params: { query: { action: "install" } }, body: { format: "repository", name } })
      : await edge.post("/edge/plugin", { body: { format: "repository", name } });
    notify(r.message, "ok", "PKGIN");
    await follow(r.id, r.log, `Installing ${name}`);
  });
  const update = button("Update all", () => void guard(async () => {
    const r = await edge.put("/edge/update");
    notify(r.message, "ok", "PKGUP");
    await follow(r.id, r.log, "Updating packages");
  }), { name: "update" });
  const refresh = async () => {
    const p = await edge.get("/edge/package");
    installed.replaceChildren(table(["Package", "Version", "Type", "Kind", "Description", ""], p.packages.map((x) => [x.name, x.version, x.type, x.kind ?? "", x.description,
      button("Remove", () => void guard(async () => {
        if (!confirmAction(`Remove package ${x.name}?`)) return;
        notify((await edge.delete("/edge/package/{name}", { params: { path: { name: x.name } } })).message, "ok", "PKGRM");
        await refresh();
      }), { "aria-label": `Remove ${x.name}` })]), "Installed packages"));
    // Only a configured repository is asked (the gateway answers 400 otherwise).
    const url = (await edge.get("/edge/category/{name}/{item}", { params: { path: { name: "Installation", item: "repositoryURL" } } })).value;
    if (!repo.value) repo.value = url;
    if (!url) {
      available.replaceChildren(h("p", { class: "ro-note" }, "No repository configured: set its URL above."));
      return;
    }
    try {
      const [plugins, services] = await Promise.all([edge.get("/edge/plugin/available"), edge.get("/edge/service/available")]);
      available.replaceChildren(table(["Package", "Kind", ""], [
        ...plugins.plugins.map((n) => [n, "plugin", button("Install", () => install(n), { "aria-label": `Install ${n}` })]),
        ...services.services.map((n) => [n, "service", button("Install", () => install(n, true), { "aria-label": `Install ${n}` })])], "Available from the repository"));
    } catch (e) {
      available.replaceChildren(h("p", { class: "ro-note" }, `Nothing available: ${e instanceof Error ? e.message : String(e)}`));
    }
  };
  root.append(repoForm, h("p", {}, update), task, installed, available);
  await guard(refresh);
}
