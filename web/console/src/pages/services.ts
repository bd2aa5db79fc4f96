// Services: list, enable, disable, delete; create a south, north,
// notification or dispatcher service from the plugin catalogue, every item
// of the plugin's schema in the form.
import { EdgeApiError } from "@edged/client";
import { enc, field, h, select, table } from "../lib/dom";
import { catalogue, itemsForm, type ItemsForm, type Plugin } from "../lib/catalogue";
import { edge } from "../lib/session";
import { confirmAction, guard, messageOf, notify } from "../lib/ui";

export async function servicesPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Services"));
  const list = h("div");
  const name = h("input", { name: "name", required: true });
  const type = select("type", [["south", "South"], ["north", "North"], ["notification", "Notification"], ["dispatcher", "Dispatcher"]]);
  const plugin = h("select", { name: "plugin", required: true });
  const items = h("div", { class: "plugin-form" });
  const enabled = h("input", { type: "checkbox", name: "enabled", checked: true });
  enabled.id = "svc-enabled";
  const formErr = h("p", { class: "error", "aria-live": "polite" });
  const form = h("form", { "aria-label": "Create a service" }, h("h2", {}, "Create a service"),
    field("Name", name), field("Type", type),
    field("Plugin", plugin, "The plugins of this type the gateway has (built in or from a package); the form shows the chosen plugin's items."),
    items,
    h("div", { class: "field" }, h("label", { for: enabled.id, class: "inline" }, enabled, " Enabled")),
    formErr, h("button", { type: "submit" }, "Create"));
  let plugins: Plugin[] = [];
  let shown: ItemsForm | undefined;
  const showPlugin = () => {
    const p = plugins.find((x) => x.name === plugin.value);
    shown = p ? itemsForm(p) : undefined;
    items.replaceChildren(shown?.el ?? h("p", {}, "No plugin of this type is installed."));
  };
  let loads = 0;
  const loadPlugins = async () => {
    const load = ++loads;
    const list = await catalogue(type.value as "south" | "north" | "notification" | "dispatcher");
    // Only the latest load renders, and the plugin chosen while it was on
    // its way stays chosen.
    if (load !== loads) return;
    plugins = list;
    const prev = plugin.value;
    plugin.replaceChildren(...plugins.map((p) => h("option", { value: p.name }, `${p.name} (${p.origin === "package" ? "package" : "built in"} ${p.version})`)));
    if (plugins.some((p) => p.name === prev)) plugin.value = prev;
    showPlugin();
  };
  type.addEventListener("change", () => void guard(loadPlugins));
  plugin.addEventListener("change", showPlugin);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    formErr.textContent = "";
    shown?.clear();
    void (async () => {
      const config = Object.fromEntries(Object.entries(shown?.values() ?? {}).map(([k, value]) => [k, { value }]));
      try {
        const res = await edge.post("/edge/service", { body: { name: name.value, type: type.value, plugin: plugin.value, enabled: enabled.checked, config } });
        notify(res.message, "ok", "SRVRG");
        location.hash = `#/config/${enc(name.value)}`;
      } catch (e) {
        // The gateway's message beside the item it names, else under the form.
        if (!(e instanceof EdgeApiError && e.status === 400 && shown?.showError(messageOf(e)))) formErr.textContent = messageOf(e);
        await guard(() => Promise.reject(e));
      }
    })();
  });
  root.append(list, form);
  const refresh = async () => {
    const all = await edge.get("/edge/service");
    const rows = all.services.filter((s) => s.type !== "Core" && s.type !== "Storage").map((s) => {
      const act = (label: string, audit: string, fn: () => Promise<{ message: string } | undefined>) =>
        h("button", { type: "button", "aria-label": `${label} ${s.name}`, onclick: () => void guard(async () => {
          const r = await fn();
          if (r) notify(r.message, "ok", audit);
          await refresh();
          // The rows were redrawn: the keyboard stays on the same button.
          list.querySelector<HTMLElement>(`button[aria-label="${CSS.escape(`${label} ${s.name}`)}"]`)?.focus();
        }) }, label);
      return [h("a", { href: `#/config/${enc(s.name)}` }, s.name), s.type, h("span", { class: `st ${s.status}` }, s.status),
        h("span", { class: "actions" },
          act("Enable", "SCHCH", () => edge.put("/edge/schedule/enable", { body: { schedule_name: s.name } })),
          act("Disable", "SCHCH", () => edge.put("/edge/schedule/disable", { body: { schedule_name: s.name } })),
          s.type === "Southbound" || s.type === "Northbound" ? h("a", { href: `#/filters/${enc(s.name)}` }, "Pipeline") : null,
          act("Delete", "SRVUN", async () => {
            if (!confirmAction(`Delete service ${s.name}?`)) return undefined;
            return edge.delete("/edge/service/{service_name}", { params: { path: { service_name: s.name } } });
          }))];
    });
    list.replaceChildren(table(["Name", "Type", "Status", "Actions"], rows));
  };
  await Promise.all([guard(refresh), guard(loadPlugins)]);
}
