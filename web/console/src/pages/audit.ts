// Audit log with source and severity filters and paging; #/audit/CODE opens
// it filtered by that source (the links of the status bar).
import type { Schema } from "@edged/client";
import { field, fmtTime, h, table } from "../lib/dom";
import { edge } from "../lib/session";
import { guard } from "../lib/ui";

const severities: Schema<"AuditSeverity">[] = ["SUCCESS", "FAILURE", "WARNING", "INFORMATION"];

export async function auditPage(root: HTMLElement, code: string): Promise<void> {
  root.append(h("h1", {}, "Audit log"));
  const source = h("input", { name: "source", placeholder: "e.g. CONCH", maxlength: 5, autocapitalize: "characters", value: code || undefined });
  const severity = h("select", { name: "severity" }, h("option", { value: "" }, "Any"), ...severities.map((s) => h("option", { value: s }, s)));
  const out = h("div", { "aria-live": "polite" });
  const pageSize = 25;
  let skip = 0;
  const prev = h("button", { type: "button" }, "Newer");
  const next = h("button", { type: "button" }, "Older");
  const show = async () => {
    const query: Record<string, string | number> = { limit: pageSize, skip };
    if (source.value) query.source = source.value.trim().toUpperCase();
    if (severity.value) query.severity = severity.value;
    const page = await edge.get("/edge/audit", { params: { query: query as never } });
    out.replaceChildren(table(["Time", "Source", "Severity", "Details"],
      page.audit.map((e) => [fmtTime(e.timestamp), e.source, e.severity, JSON.stringify(e.details)]), `${page.totalCount} entries`));
    prev.disabled = skip === 0;
    next.disabled = skip + page.audit.length >= page.totalCount;
  };
  source.addEventListener("change", () => { skip = 0; void guard(show); });
  severity.addEventListener("change", () => { skip = 0; void guard(show); });
  prev.addEventListener("click", () => { skip = Math.max(0, skip - pageSize); void guard(show); });
  next.addEventListener("click", () => { skip += pageSize; void guard(show); });
  root.append(h("div", { class: "controls" }, field("Source", source), field("Severity", severity)), out, h("div", { class: "pager" }, prev, next));
  await guard(show);
}
