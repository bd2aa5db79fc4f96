// Configuration as a document: export it, edit it, see the plan (the diff)
// and only then apply it.
import type { Schema } from "@edged/client";
import { button, h, table } from "../lib/dom";
import { edge, isAdmin } from "../lib/session";
import { guard, notify } from "../lib/ui";

function changes(res: Schema<"FleetChanges">, caption: string): HTMLElement {
  if (res.changes.length === 0) return h("p", { class: "nochange" }, "No changes: the gateway already holds this document.");
  const t = table(["Action", "Kind", "Name", "Field", "From", "To"], res.changes.map((c) => [
    h("span", { class: c.action }, c.action), c.kind, c.name, c.field ?? "", c.from ?? "", c.to ?? ""]),
  `${caption}: ${res.summary.create} to create, ${res.summary.change} to change, ${res.summary.remove} to remove`);
  t.classList.add("diff");
  t.querySelectorAll("tbody tr").forEach((tr, i) => tr.firstElementChild?.classList.add(res.changes[i]!.action));
  return t;
}

export async function fleetPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Configuration document"));
  if (!isAdmin()) {
    root.append(h("p", {}, "Only admin users export and apply configuration."));
    return;
  }
  const doc = h("textarea", { name: "document", rows: 18, spellcheck: "false", "aria-label": "Configuration document (JSON)" });
  const out = h("div", { "aria-live": "polite", class: "plan" });
  let planned = ""; // the text the plan shown is for: Apply applies only that
  const apply = button("Apply", () => void guard(async () => {
    if (doc.value !== planned) return notify("The document changed since its plan: plan it again first", "error");
    const res = await edge.post("/edge/config/apply", { body: JSON.parse(doc.value) as Schema<"FleetDocument"> });
    out.replaceChildren(changes(res, "Applied"));
    notify(`Applied: ${res.summary.create} created, ${res.summary.change} changed, ${res.summary.remove} removed`, "ok", "CONCH");
    planned = "";
    apply.disabled = true;
  }), { disabled: true, name: "apply" });
  const parse = (): Schema<"FleetDocument"> | undefined => {
    try {
      return JSON.parse(doc.value) as Schema<"FleetDocument">;
    } catch (e) {
      notify(`The document is not JSON: ${(e as Error).message}`, "error");
      return undefined;
    }
  };
  const plan = button("Plan", () => void guard(async () => {
    const body = parse();
    if (!body) return;
    const res = await edge.post("/edge/config/plan", { body });
    out.replaceChildren(changes(res, "Plan"));
    planned = doc.value;
    apply.disabled = res.changes.length === 0;
    notify(`Plan: ${res.changes.length} changes; nothing is written until Apply`);
  }), { name: "plan" });
  const load = button("Export from the gateway", () => void guard(async () => {
    doc.value = JSON.stringify(await edge.get("/edge/config/export"), null, 2);
    planned = "";
    apply.disabled = true;
    out.replaceChildren();
  }), { name: "export" });
  doc.addEventListener("input", () => { apply.disabled = doc.value !== planned; });
  root.append(h("p", {}, "Export the gateway's configuration, change it here (or paste another gateway's), see what applying it would change, then apply it. Secrets are never exported; a document holding a secret reference is refused."),
    h("div", { class: "actions" }, load, plan, apply), doc, out);
  load.click();
}
