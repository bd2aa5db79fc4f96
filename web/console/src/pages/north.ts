// North: every north service and task with its lag, readings sent and
// set-aside readings, which can be sent again or deleted.
import { button, enc, fmtTime, h, table } from "../lib/dom";
import { edge } from "../lib/session";
import { confirmAction, every, guard, notify, REFRESH_MS } from "../lib/ui";

/** lags reads the north lag (readings not yet sent) of every stream from the gateway's metrics. */
async function lags(): Promise<Map<string, number>> {
  const r = await edge.raw.GET("/edge/metrics", { parseAs: "text" });
  const out = new Map<string, number>();
  if (!r.response.ok || typeof r.data !== "string") return out;
  for (const m of r.data.matchAll(/^edged_north_lag_readings\{[^}]*stream="((?:[^"\\]|\\.)*)"[^}]*\}\s+(\S+)$/gm)) {
    out.set(m[1]!.replace(/\\(.)/g, "$1"), Number(m[2]));
  }
  return out;
}

export async function northPage(root: HTMLElement, name: string): Promise<void> {
  if (name) return setAsidePage(root, name);
  root.append(h("h1", {}, "North"));
  const body = h("div");
  root.append(body);
  every(REFRESH_MS, async () => {
    await guard(async () => {
      const [list, lag] = await Promise.all([edge.get("/edge/north"), lags()]);
      const aside = await Promise.all(list.services.map((s) =>
        edge.get("/edge/north/{north_name}/setaside", { params: { path: { north_name: s.name }, query: { limit: 1 } } }).then((a) => a.total, () => NaN)));
      body.replaceChildren(list.services.length === 0 ? h("p", {}, "No north service or task yet: create one on the Services page.") :
        table(["Name", "Kind", "Plugin", "Status", "Lag (readings)", "Sent", "Set aside"], list.services.map((s, i) => [
          s.name, s.type, s.plugin.name, h("span", { class: `st ${s.status}` }, s.status),
          lag.has(s.name) ? String(lag.get(s.name)) : "–", String(s.sent),
          h("a", { href: `#/north/${enc(s.name)}`, "data-setaside": String(aside[i]) }, `${aside[i]} set aside`)])));
    });
  });
}

async function setAsidePage(root: HTMLElement, name: string): Promise<void> {
  root.append(h("h1", {}, `Set-aside readings of ${name}`), h("p", {}, h("a", { href: "#/north" }, "All north services")));
  const body = h("div", { "aria-live": "polite" });
  const chosen = (): number[] => [...body.querySelectorAll<HTMLInputElement>("input[name=pick]:checked")].map((b) => Number(b.value));
  const resend = button("Send again", () => void guard(async () => {
    const ids = chosen();
    const r = await edge.put("/edge/north/{north_name}/setaside/resend", { params: { path: { north_name: name } }, body: { ids } });
    notify(r.message, "ok", "NHREJ");
    await refresh();
  }), { name: "resend" });
  const del = button("Delete", () => void guard(async () => {
    const ids = chosen();
    if (!confirmAction(ids.length ? `Delete ${ids.length} set-aside readings?` : "Delete every set-aside reading?")) return;
    const r = await edge.delete("/edge/north/{north_name}/setaside", { params: { path: { north_name: name }, query: ids.length ? { id: ids } : {} } });
    notify(r.message, "ok", "NHREJ");
    await refresh();
  }), { name: "delete" });
  const refresh = async () => {
    const r = await edge.get("/edge/north/{north_name}/setaside", { params: { path: { north_name: name }, query: { limit: 100 } } });
    body.dataset.total = String(r.total);
    body.replaceChildren(r.readings.length === 0 ? h("p", {}, "Nothing set aside.") :
      table(["", "Id", "Asset", "Reading time", "Reading", "Reason", "Set aside", "Marked to resend"], r.readings.map((s) => {
        const box = h("input", { type: "checkbox", name: "pick", value: String(s.id), "aria-label": `Choose set-aside reading ${s.id}` });
        return [box, String(s.id), s.asset, fmtTime(s.timestamp), JSON.stringify(s.reading), s.reason, fmtTime(s.setAside), s.resend ? "yes" : "no"];
      }), `${r.total} readings set aside (none chosen: the buttons act on all)`));
  };
  root.append(h("div", { class: "actions" }, resend, del), body);
  await guard(refresh);
}
