// Dashboard: health, rates and services, refreshed live.
import { h, table } from "../lib/dom";
import { edge } from "../lib/session";
import { every, guard, REFRESH_MS } from "../lib/ui";

export async function dashboard(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Dashboard"));
  const health = h("section", { "aria-label": "Health" });
  const rates = h("section", { "aria-label": "Rates" });
  const services = h("section", { "aria-label": "Services" });
  root.append(h("div", { class: "cards" }, health, rates), services);
  every(REFRESH_MS, async () => {
    await guard(async () => {
      const ping = await edge.get("/edge/ping");
      health.replaceChildren(h("h2", {}, "Health"),
        h("p", { class: `health ${ping.health}` }, ping.health),
        h("dl", {},
          h("dt", {}, "Gateway"), h("dd", {}, ping.serviceName),
          h("dt", {}, "Version"), h("dd", {}, ping.version),
          h("dt", {}, "Uptime"), h("dd", {}, `${Math.round(ping.uptime)} s`),
          h("dt", {}, "Readings read"), h("dd", {}, String(ping.dataRead)),
          h("dt", {}, "Readings sent"), h("dd", {}, String(ping.dataSent)),
          h("dt", {}, "Readings purged"), h("dd", {}, String(ping.dataPurged))));
      // Ingest (READINGS) and every north service's or task's send rate
      // (the statistic named after it, once it exists).
      const [north, counters] = await Promise.all([edge.get("/edge/north"), edge.get("/edge/statistics")]);
      const known = new Set(counters.map((c) => c.key));
      const sent = north.services.map((n) => n.name).filter((n) => known.has(n));
      const names = new Map<string, string>([["READINGS", "Ingested"], ["DISCARDED", "Discarded"], ...sent.map((n): [string, string] => [n, `Sent by ${n}`])]);
      const r = await edge.get("/edge/statistics/rate", { params: { query: { statistics: [...names.keys()].join(","), periods: "1,5,15" } } });
      const rows = [...names].map(([k, label]) => [label, ...["1", "5", "15"].map((p) => (r.rates[k]?.[p] ?? 0).toFixed(1))]);
      rates.replaceChildren(h("h2", {}, "Rates (readings per minute)"), table(["Rate", "1 min", "5 min", "15 min"], rows));
      const list = await edge.get("/edge/service");
      services.replaceChildren(h("h2", {}, "Services"),
        table(["Name", "Type", "Status"], list.services.map((s) => [s.name, s.type, h("span", { class: `st ${s.status}` }, s.status)])));
    });
  });
}
