// Control: writes and operations to a service, an asset's service or every
// service, through the dispatcher; its answer and the audit trail of control.
import { button, field, fmtTime, h, select, table } from "../lib/dom";
import { edge, isAdmin } from "../lib/session";
import { guard, messageOf, notify } from "../lib/ui";

/** pairs parses "key=value" lines; numbers and booleans keep their type. */
export function pairs(text: string): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!t) continue;
    const i = t.indexOf("=");
    if (i <= 0) throw new Error(`"${t}" is not name=value`);
    const k = t.slice(0, i).trim();
    const v = t.slice(i + 1).trim();
    out[k] = v === "true" ? true : v === "false" ? false : v !== "" && !Number.isNaN(Number(v)) ? Number(v) : v;
  }
  return out;
}

export async function controlPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Control"));
  if (!isAdmin()) root.append(h("p", { class: "ro-note" }, "Only the admin and control roles may send control requests; the gateway refuses others (and audits the refusal)."));
  const dest = select("destination", [["service", "A service"], ["asset", "The service of an asset"], ["broadcast", "Every service that writes"]]);
  const south = await guard(() => edge.get("/edge/south"));
  const name = h("input", { name: "target", list: "control-targets" });
  const targets = h("datalist", { id: "control-targets" }, ...(south?.services ?? []).flatMap((s) => [h("option", { value: s.name }), ...s.assets.map((a) => h("option", { value: a.asset }))]));
  const kind = select("kind", [["write", "Write values"], ["operation", "Run an operation"]]);
  const op = h("input", { name: "operation" });
  const values = h("textarea", { name: "values", rows: 3, placeholder: "setpoint=42\nenable=true", spellcheck: "false" });
  const answer = h("div", { "aria-live": "polite", class: "answer" });
  const trail = h("div");
  const opField = field("Operation", op);
  const sync = () => { opField.hidden = kind.value !== "operation"; name.disabled = dest.value === "broadcast"; };
  kind.addEventListener("change", sync);
  dest.addEventListener("change", sync);
  sync();
  const form = h("form", { "aria-label": "Send a control request" }, field("Destination", dest), field("Service or asset", name), targets, field("Request", kind), opField,
    field("Values or parameters (name=value, one a line)", values), h("button", { type: "submit" }, "Send"));
  const showTrail = async () => {
    const [w, o] = await Promise.all(["CTLWR", "CTLOP"].map((source) => edge.get("/edge/audit", { params: { query: { source: source as "CTLWR", limit: 20 } } })));
    const entries = [...w!.audit, ...o!.audit].sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime()).slice(0, 20);
    trail.replaceChildren(table(["Time", "Source", "Severity", "Details"], entries.map((e) => [fmtTime(e.timestamp), e.source, e.severity, JSON.stringify(e.details)]), "Audit trail of control (newest first)"));
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void (async () => {
      try {
        const destination = dest.value as "service" | "asset" | "broadcast";
        const target = destination === "broadcast" ? {} : { name: name.value };
        const res = kind.value === "write"
          ? await edge.post("/edge/control/write", { body: { destination, ...target, values: pairs(values.value) as never } })
          : await edge.post("/edge/control/operation", { body: { destination, ...target, operation: op.value, parameters: pairs(values.value) as never } });
        answer.replaceChildren(h("h2", {}, "The dispatcher's answer"), table(["Service", "Asset", "Outcome"], res.results.map((r) => [r.service, r.asset ?? "", r.error ? `failed: ${r.error}` : "done"])));
        notify(`Control ${kind.value} sent: ${res.results.length} service${res.results.length === 1 ? "" : "s"} answered`, "ok", kind.value === "write" ? "CTLWR" : "CTLOP");
      } catch (e) {
        answer.replaceChildren(h("h2", {}, "The dispatcher's answer"), h("p", { class: "error" }, messageOf(e)));
        notify(messageOf(e), "error", kind.value === "write" ? "CTLWR" : "CTLOP");
      }
      await guard(showTrail);
    })();
  });
  root.append(form, answer, h("p", {}, button("Refresh the trail", () => void guard(showTrail))), trail);
  await guard(showTrail);
}
