// The gateway's log, filtered by service and level, following new lines.
import type { Schema } from "@edged/client";
import { checkbox, field, h, select } from "../lib/dom";
import { edge } from "../lib/session";
import { every, guard, REFRESH_MS } from "../lib/ui";

const levels: Schema<"LogLevel">[] = ["debug", "info", "warning", "error"];

export async function logsPage(root: HTMLElement, source: string): Promise<void> {
  root.append(h("h1", {}, "Logs"));
  const services = await guard(() => edge.get("/edge/service"));
  const names = ["core", ...(services?.services ?? []).filter((s) => s.type !== "Core" && s.type !== "Storage").map((s) => s.name)];
  const src = select("source", [["", "Every source"], ...names.map((n): [string, string] => [n, n])], source);
  const level = select("level", levels, "info");
  const follow = checkbox("Follow new lines", "follow", true);
  const out = h("pre", { class: "log", tabindex: 0, "aria-label": "Log lines, oldest first", "aria-live": "off" });
  const count = h("p", { "aria-live": "polite" });
  root.append(h("div", { class: "controls" }, field("Source", src), field("Level and above", level), follow.el), count, out);
  let latest = 0; // a slower answer to older filters must not replace a newer one
  const show = async () => {
    const seq = ++latest;
    const query: Record<string, string | number> = { limit: 200, level: level.value };
    if (src.value) query.source = src.value;
    const res = await edge.get("/edge/syslog", { params: { query: query as never } });
    if (seq !== latest) return;
    count.textContent = `${res.count} lines match; the newest ${res.logs.length} shown, oldest first`;
    const atEnd = out.scrollTop + out.clientHeight >= out.scrollHeight - 4;
    out.replaceChildren(...res.logs.slice().reverse().map((l) =>
      h("div", { class: `ll ${l.level}` }, `${l.timestamp} ${l.level.toUpperCase().padEnd(7)} ${l.source}: ${l.message}${Object.keys(l.attrs).length ? " " + JSON.stringify(l.attrs) : ""}`)));
    if (atEnd) out.scrollTop = out.scrollHeight; // follow: stay at the newest line
  };
  src.addEventListener("change", () => void guard(show));
  level.addEventListener("change", () => void guard(show));
  every(REFRESH_MS, async () => { if (follow.box.checked) await guard(show); });
}
