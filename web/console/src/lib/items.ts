// Configuration items as form controls, by their type.
import type { Schema } from "@edged/client";
import { h, field, type Control } from "./dom";
import { edge } from "./session";
import { guard, messageOf, notify } from "./ui";

/** itemInput returns the control of a configuration item, by its type. Read-only items are not editable: inputs are readonly, selects disabled. */
export function itemInput(name: string, item: Schema<"ConfigItem">): Control {
  const ro = item.readonly === "true";
  const common = { name, "data-item": name, readonly: ro, "aria-readonly": ro ? "true" : undefined, required: item.mandatory === "true" && !ro, class: ro ? "ro" : undefined };
  switch (item.type) {
    case "boolean":
    case "enumeration": {
      const opts = item.type === "boolean" ? ["true", "false"] : item.options ?? [];
      const s = h("select", { ...common, disabled: ro }, ...opts.map((o) => h("option", { value: o }, o)));
      s.value = item.type === "boolean" ? item.value.toLowerCase() : item.value;
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

/** sortedItems are a category's items in their display order. */
export const sortedItems = (cat: Record<string, Schema<"ConfigItem">>): [string, Schema<"ConfigItem">][] =>
  Object.entries(cat).sort(([, a], [, b]) => Number(a.order ?? 0) - Number(b.order ?? 0));

/**
 * categoryForm renders a category's items, each saved on its own; the
 * gateway's validation message is shown beside the item. Read-only items
 * have no Save button.
 */
export function categoryForm(name: string, cat: Record<string, Schema<"ConfigItem">>, label = `Items of ${name}`): HTMLFormElement {
  const form = h("form", { "aria-label": label, class: "items" });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  for (const [key, item] of sortedItems(cat)) {
    const input = itemInput(key, item);
    const err = h("small", { class: "error", "aria-live": "polite" });
    input.setAttribute("aria-describedby", (err.id = `err-${key}`));
    const ro = item.readonly === "true";
    const save = ro ? h("span", { class: "ro-note" }, "read-only") : h("button", { type: "button", "aria-label": `Save ${item.displayName ?? key}` }, "Save");
    save.addEventListener("click", () => void (async () => {
      if (ro) return;
      err.textContent = "";
      if (item.type === "password" && input.value === "") return;
      try {
        const res = await edge.put("/edge/category/{name}/{item}", { params: { path: { name, item: key } }, body: { value: input.value } });
        notify(`${name}.${key} is now ${item.type === "password" ? "changed" : res.value}`, "ok", "CONCH");
      } catch (e) {
        err.textContent = messageOf(e); // the item's validation error, beside it
        await guard(() => Promise.reject(e));
      }
    })());
    form.append(h("div", { class: `item${ro ? " readonly" : ""}` }, field(`${item.displayName ?? key} (${item.type})`, input, item.description), save, err));
  }
  return form;
}
