// Services: list, enable, disable, delete; create a south or north service.
import { enc, field, h, table } from "../lib/dom";
import { edge } from "../lib/session";
import { confirmAction, guard, notify } from "../lib/ui";

export async function servicesPage(root: HTMLElement): Promise<void> {
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
      notify(res.message, "ok", "SRVRG");
      location.hash = `#/config/${enc(name.value)}`;
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
      const act = (label: string, audit: string, fn: () => Promise<{ message: string } | undefined>) =>
        h("button", { type: "button", onclick: () => void guard(async () => { const r = await fn(); if (r) notify(r.message, "ok", audit); await refresh(); }) }, label);
      return [h("a", { href: `#/config/${enc(s.name)}` }, s.name), s.type, h("span", { class: `st ${s.status}` }, s.status),
        h("span", { class: "actions" },
          act("Enable", "SCHCH", () => edge.put("/edge/schedule/enable", { body: { schedule_name: s.name } })),
          act("Disable", "SCHCH", () => edge.put("/edge/schedule/disable", { body: { schedule_name: s.name } })),
          h("a", { href: `#/filters/${enc(s.name)}` }, "Pipeline"),
          act("Delete", "SRVUN", async () => {
            if (!confirmAction(`Delete service ${s.name}?`)) return undefined;
            return edge.delete("/edge/service/{service_name}", { params: { path: { service_name: s.name } } });
          }))];
    });
    list.replaceChildren(table(["Name", "Type", "Status", "Actions"], rows));
  };
  await guard(refresh);
}
