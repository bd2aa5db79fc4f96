// Notifications: list, create, edit, delete, and their delivery channels;
// when each last fired (its newest NTFSN audit entry).
import { EdgeApiError, type Schema } from "@edged/client";
import { button, checkbox, enc, field, fmtTime, h, select, table } from "../lib/dom";
import { itemsForm, type ItemsForm } from "../lib/catalogue";
import { edge } from "../lib/session";
import { confirmAction, every, guard, messageOf, notify, REFRESH_MS } from "../lib/ui";

type NPlugin = Schema<"NotificationPlugin">;
const asPlugin = (p: NPlugin) => ({ name: p.name, version: p.version, description: p.description, type: "notification" as const, origin: "builtin" as const, config: p.config });

/** lastFired maps each notification to the time of its newest NTFSN entry. */
async function lastFired(): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  const page = await edge.get("/edge/audit", { params: { query: { source: "NTFSN", limit: 200 } } });
  for (const e of page.audit) {
    const name = (e.details as { name?: string }).name;
    if (name && !out.has(name)) out.set(name, e.timestamp);
  }
  return out;
}

export async function notificationsPage(root: HTMLElement, name: string): Promise<void> {
  if (name) return notificationPage(root, name);
  root.append(h("h1", {}, "Notifications"));
  const list = h("div");
  const refresh = async () => {
    const [all, fired] = await Promise.all([edge.get("/edge/notification"), lastFired()]);
    list.replaceChildren(all.notifications.length === 0 ? h("p", {}, "No notifications yet.") :
      table(["Name", "Rule", "Channel", "Type", "Enabled", "Channels", "Last fired", "Actions"], all.notifications.map((n) => [
        h("a", { href: `#/notifications/${enc(n.name)}` }, n.name), n.rule, n.channel, n.notificationType, n.enable ? "yes" : "no", n.channels.join(", "),
        h("span", { "data-fired": n.name }, fired.has(n.name) ? fmtTime(fired.get(n.name)) : "never"),
        h("span", { class: "actions" },
          button(n.enable ? "Disable" : "Enable", () => void guard(async () => {
            await edge.put("/edge/notification/{notification_name}", { params: { path: { notification_name: n.name } }, body: { enabled: !n.enable } });
            notify(`${n.name} ${n.enable ? "disabled" : "enabled"}`, "ok", "CONCH");
            await refresh();
            // The row was redrawn: the keyboard stays on its toggle.
            list.querySelector<HTMLElement>(`button[aria-label="${n.enable ? "Enable" : "Disable"} ${CSS.escape(n.name)}"]`)?.focus();
          }), { "aria-label": `${n.enable ? "Disable" : "Enable"} ${n.name}` }),
          button("Delete", () => void guard(async () => {
            if (!confirmAction(`Delete notification ${n.name}?`)) return;
            notify((await edge.delete("/edge/notification/{notification_name}", { params: { path: { notification_name: n.name } } })).message, "ok", "NTFDL");
            await refresh();
          }), { "aria-label": `Delete ${n.name}` }))])));
  };
  root.append(list);
  const plugins = await guard(() => edge.get("/edge/notification/plugin"));
  const types = await guard(() => edge.get("/edge/notification/type"));
  if (plugins && types) root.append(createForm(plugins.rules, plugins.delivery, types.notification_type, refresh));
  await guard(refresh);
  // When each last fired, followed in place: the rows (and the focus on
  // their buttons) stay.
  every(REFRESH_MS, async () => void (await guard(async () => showFired(list, await lastFired()))));
}

/** showFired writes each notification's last firing into its [data-fired] cell under el. */
function showFired(el: HTMLElement, fired: Map<string, Date>): void {
  for (const span of el.querySelectorAll<HTMLElement>("[data-fired]")) {
    const t = fired.get(span.dataset.fired!);
    span.textContent = t ? fmtTime(t) : "never";
  }
}

function pluginPicker(label: string, name: string, plugins: NPlugin[], prefix: string): { el: HTMLElement; sel: HTMLSelectElement; form: () => ItemsForm | undefined } {
  const sel = select(name, plugins.map((p) => p.name));
  const box = h("div");
  let shown: ItemsForm | undefined;
  const show = () => {
    const p = plugins.find((x) => x.name === sel.value);
    shown = p ? itemsForm(asPlugin(p), prefix) : undefined;
    box.replaceChildren(shown?.el ?? "");
  };
  sel.addEventListener("change", show);
  show();
  return { el: h("div", {}, field(label, sel), box), sel, form: () => shown };
}

function createForm(rules: NPlugin[], delivery: NPlugin[], types: string[], then: () => Promise<void>): HTMLElement {
  const name = h("input", { name: "ntf-name", required: true });
  const desc = h("input", { name: "ntf-description" });
  const rule = pluginPicker("Rule", "ntf-rule", rules, "rule");
  const chan = pluginPicker("Delivery channel", "ntf-channel", delivery, "dlv");
  const type = select("ntf-type", types);
  const retrigger = h("input", { name: "ntf-retrigger", type: "number", min: 0, step: 1, value: 60 });
  const en = checkbox("Enabled", "ntf-enabled", true);
  const err = h("p", { class: "error", "aria-live": "polite" });
  const form = h("form", { "aria-label": "Create a notification" }, h("h2", {}, "Create a notification"),
    field("Name", name), field("Description", desc), rule.el, chan.el, field("Type", type), field("Retrigger time (s)", retrigger), en.el, err,
    h("button", { type: "submit" }, "Create"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    err.textContent = "";
    rule.form()?.clear();
    chan.form()?.clear();
    void (async () => {
      try {
        await edge.post("/edge/notification", { body: {
          name: name.value, description: desc.value, rule: rule.sel.value, channel: chan.sel.value,
          notification_type: type.value as Schema<"NotificationType">, enabled: en.box.checked, retrigger_time: Number(retrigger.value),
          rule_config: rule.form()?.values() ?? {}, delivery_config: chan.form()?.values() ?? {} } });
        notify(`Notification ${name.value} created`, "ok", "NTFAD");
        await then();
      } catch (e) {
        const m = messageOf(e);
        if (!(e instanceof EdgeApiError && e.status === 400 && (rule.form()?.showError(m) || chan.form()?.showError(m)))) err.textContent = m;
        await guard(() => Promise.reject(e));
      }
    })();
  });
  return form;
}

async function notificationPage(root: HTMLElement, name: string): Promise<void> {
  root.append(h("h1", {}, `Notification ${name}`), h("p", {}, h("a", { href: "#/notifications" }, "All notifications")));
  const n = await guard(() => edge.get("/edge/notification/{notification_name}", { params: { path: { notification_name: name } } }));
  if (!n) return;
  const body = h("div");
  const channels = h("div");
  const showChannels = async () => {
    const cs = await edge.get("/edge/notification/{notification_name}/delivery", { params: { path: { notification_name: name } } });
    channels.replaceChildren(table(["Channel", "Plugin", "Category", ""], cs.channels.map((c, i) => [c.name, c.plugin, h("a", { href: `#/config/${enc(c.category)}` }, c.category),
      i === 0 ? h("span", { class: "ro-note" }, "the notification's own") : button("Delete", () => void guard(async () => {
        if (!confirmAction(`Delete channel ${c.name}?`)) return;
        notify((await edge.delete("/edge/notification/{notification_name}/delivery/{channel_name}", { params: { path: { notification_name: name, channel_name: c.name } } })).message, "ok", "NTFDL");
        await showChannels();
      }), { "aria-label": `Delete channel ${c.name}` })]), "Delivery channels"));
  };
  const desc = h("input", { name: "edit-description", value: n.description });
  const retrigger = h("input", { name: "edit-retrigger", type: "number", min: 0, value: n.retriggerTime });
  const en = checkbox("Enabled", "edit-enabled", n.enable);
  const edit = h("form", { "aria-label": "Edit the notification" }, h("h2", {}, "Edit"), field("Description", desc), field("Retrigger time (s)", retrigger), en.el,
    h("p", {}, `Rule ${n.rule}, channel ${n.channel}: their items are on the categories `, h("a", { href: `#/config/${enc("rule" + name)}` }, `rule${name}`), " and ",
      h("a", { href: `#/config/${enc("delivery" + name)}` }, `delivery${name}`), "."),
    h("button", { type: "submit" }, "Save"));
  edit.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      await edge.put("/edge/notification/{notification_name}", { params: { path: { notification_name: name } },
        body: { description: desc.value, retrigger_time: Number(retrigger.value), enabled: en.box.checked } });
      notify(`Notification ${name} saved`, "ok", "CONCH");
    });
  });
  const plugins = await guard(() => edge.get("/edge/notification/plugin"));
  const cname = h("input", { name: "channel-name", required: true });
  const picker = pluginPicker("Plugin", "channel-plugin", plugins?.delivery ?? [], "ch");
  const addErr = h("p", { class: "error", "aria-live": "polite" });
  const add = h("form", { "aria-label": "Add a delivery channel" }, h("h2", {}, "Add a delivery channel"), field("Name", cname), picker.el, addErr, h("button", { type: "submit" }, "Add"));
  add.addEventListener("submit", (ev) => {
    ev.preventDefault();
    addErr.textContent = "";
    void (async () => {
      try {
        await edge.post("/edge/notification/{notification_name}/delivery", { params: { path: { notification_name: name } },
          body: { name: cname.value, plugin: picker.sel.value, config: picker.form()?.values() ?? {} } });
        notify(`Channel ${cname.value} added to ${name}`, "ok", "CONAD");
        await showChannels();
      } catch (e) {
        if (!(e instanceof EdgeApiError && e.status === 400 && picker.form()?.showError(messageOf(e)))) addErr.textContent = messageOf(e);
        await guard(() => Promise.reject(e));
      }
    })();
  });
  const fired = h("p", {}, "Last fired: ", h("span", { "data-fired": name }, "never"));
  body.append(h("p", {}, n.description), fired, edit, channels, add);
  root.append(body);
  await guard(showChannels);
  every(REFRESH_MS, async () => void (await guard(async () => showFired(fired, await lastFired()))));
}
