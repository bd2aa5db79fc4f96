// Create forms from the plugin catalogue (GET /edge/plugin/installed): every
// item of the chosen plugin's schema, before the service or filter exists.
import type { Schema } from "@edged/client";
import { h } from "./dom";
import { itemInput, sortedItems } from "./items";
import { edge } from "./session";

export type PluginKind = Schema<"PluginType">;
export type Plugin = Schema<"InstalledPlugin">;

/** catalogue lists the plugins of a kind with their items. */
export async function catalogue(type: PluginKind): Promise<Plugin[]> {
  return (await edge.get("/edge/plugin/installed", { params: { query: { type, config: true } } })).plugins;
}

/**
 * valid evaluates an item's validity condition over the form's values:
 * terms `item == "value"` or `item != "value"` joined by && and ||. A
 * condition of another form counts as valid (the item stays shown).
 */
export function valid(cond: string | undefined, value: (item: string) => string | undefined): boolean {
  if (!cond?.trim()) return true;
  const term = (t: string): boolean => {
    const m = /^\s*(\w+)\s*(==|!=)\s*["']([^"']*)["']\s*$/.exec(t);
    if (!m) return true;
    const v = value(m[1]!);
    if (v === undefined) return true;
    return (v.toLowerCase() === m[3]!.toLowerCase()) === (m[2] === "==");
  };
  return cond.split("||").some((alt) => alt.split("&&").every(term));
}

/** A plugin's items as a create form's fieldset. */
export interface ItemsForm {
  el: HTMLElement;
  /** values are the items the operator set: those differing from their default, passwords when filled. */
  values(): Record<string, string>;
  /** showError puts the gateway's message beside the item it names; false when it names none. */
  showError(message: string): boolean;
  clear(): void;
}

export function itemsForm(plugin: Plugin, prefix = "cfg"): ItemsForm {
  const cat = plugin.config ?? {};
  const el = h("fieldset", { class: "plugin-items", "data-plugin": plugin.name }, h("legend", {}, `${plugin.name} ${plugin.version}: ${plugin.description}`));
  const inputs = new Map<string, { input: ReturnType<typeof itemInput>; err: HTMLElement; row: HTMLElement; item: Schema<"ConfigItem"> }>();
  for (const [key, item] of sortedItems(cat)) {
    const input = itemInput(key, item);
    input.id = `${prefix}-${key}`;
    const err = h("small", { class: "error", id: `${prefix}-err-${key}`, "aria-live": "polite" });
    input.setAttribute("aria-describedby", err.id);
    const limits = [item.minimum && `min ${item.minimum}`, item.maximum && `max ${item.maximum}`, item.length && `up to ${item.length} characters`,
      item.default !== undefined && item.type !== "password" && `default ${item.default || "empty"}`].filter(Boolean).join(", ");
    const label = `${item.displayName ?? key}${item.mandatory === "true" ? " *" : ""}`;
    const row = h("div", { class: `field${item.readonly === "true" ? " readonly" : ""}`, "data-row": key },
      h("label", { for: input.id }, label), input,
      h("small", {}, `${item.description}${limits ? ` (${item.type}; ${limits})` : ` (${item.type})`}`), err);
    inputs.set(key, { input, err, row, item });
    el.append(row);
  }
  // Items whose validity condition fails are hidden and not sent.
  const current = (k: string) => inputs.get(k)?.input.value;
  const applyValidity = () => {
    for (const { row, item, input } of inputs.values()) {
      const ok = valid(item.validity, current);
      row.hidden = !ok;
      if (item.readonly !== "true") input.disabled = !ok;
    }
  };
  el.addEventListener("change", applyValidity);
  applyValidity();
  return {
    el,
    values() {
      const out: Record<string, string> = {};
      for (const [k, { input, item }] of inputs) {
        if (item.readonly === "true" || input.disabled) continue;
        if (item.type === "password" ? input.value !== "" : input.value !== (item.default ?? item.value)) out[k] = input.value;
      }
      return out;
    },
    showError(message) {
      // The item the message names: quoted ("rules") first, else as a word;
      // the longest name found wins.
      const esc = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const longest = (ks: string[]) => ks.sort((a, b) => b.length - a.length)[0];
      const keys = [...inputs.keys()];
      const named = longest(keys.filter((k) => message.includes(`"${k}"`)))
        ?? longest(keys.filter((k) => new RegExp(`(^|[^\\w])${esc(k)}([^\\w]|$)`).test(message)));
      if (!named) return false;
      const { err, input } = inputs.get(named)!;
      err.textContent = message;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return true;
    },
    clear() {
      for (const { err, input } of inputs.values()) {
        err.textContent = "";
        input.removeAttribute("aria-invalid");
      }
    },
  };
}
