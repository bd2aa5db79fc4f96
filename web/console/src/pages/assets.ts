// Assets: the list, and per asset a live plot and its readings.
import uPlot from "uplot";
import { enc, field, fmtTime, h, table } from "../lib/dom";
import { edge } from "../lib/session";
import { every, guard, onLeave, REFRESH_MS } from "../lib/ui";

export async function assetsPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Assets"));
  const body = h("div");
  root.append(body);
  every(REFRESH_MS * 2, async () => {
    await guard(async () => {
      const list = await edge.get("/edge/asset");
      body.replaceChildren(list.length === 0 ? h("p", {}, "No asset has readings yet.") :
        table(["Asset", "Readings"], list.map((a) => [h("a", { href: `#/asset/${enc(a.assetCode)}` }, a.assetCode), String(a.count)])));
    });
  });
}

/** Windows of the asset plot: the query window, its length (s) and the series' bucket. */
const windows = [
  { label: "Last 10 minutes", query: { minutes: 10 }, span: 600, group: "seconds" },
  { label: "Last hour", query: { hours: 1 }, span: 3600, group: "seconds" },
  { label: "Last 24 hours", query: { hours: 24 }, span: 86400, group: "minutes" },
  { label: "Last 7 days", query: { hours: 168 }, span: 604800, group: "hours" },
] as const;

/**
 * xRange is the plot's time axis (seconds): the chosen window ending now,
 * whatever the number of points, so one reading is a dot in its window
 * rather than the centre of an axis of years; it grows to include points
 * outside the window (a gateway clock ahead of the browser's).
 */
export function xRange(times: number[], span: number, now = Date.now() / 1000): [number, number] {
  let lo = now - span;
  let hi = now;
  if (times.length > 0) {
    lo = Math.min(lo, times[0]!);
    hi = Math.max(hi, times[times.length - 1]!);
  }
  return [lo, hi];
}

export async function assetPage(root: HTMLElement, code: string): Promise<void> {
  root.append(h("h1", {}, `Asset ${code}`), h("p", {}, h("a", { href: "#/assets" }, "All assets")));
  const latest = await guard(() => edge.get("/edge/asset/{code}", { params: { path: { code }, query: { limit: 1 } } }));
  const keys = latest?.[0] ? Object.keys(latest[0].reading).filter((k) => typeof latest[0]!.reading[k] === "number") : [];
  const win = h("select", { name: "window" }, ...windows.map((w, i) => h("option", { value: String(i) }, w.label)));
  const pick = h("fieldset", {}, h("legend", {}, "Datapoints"),
    ...keys.map((k, i) => {
      const box = h("input", { type: "checkbox", name: "datapoint", value: k, checked: i < 3 });
      box.id = `dp-${k}`;
      return h("label", { for: box.id, class: "inline" }, box, ` ${k}`);
    }));
  const plotBox = h("div", { class: "plot", role: "img", "aria-label": `Plot of asset ${code}` });
  root.append(h("div", { class: "controls" }, field("Window", win), pick), plotBox);
  let plot: uPlot | undefined;
  onLeave(() => plot?.destroy());

  const draw = async () => {
    const w = windows[Number(win.value)]!;
    const chosen = [...pick.querySelectorAll<HTMLInputElement>("input:checked")].map((b) => b.value);
    if (chosen.length === 0) {
      plotBox.replaceChildren(h("p", {}, "Choose a datapoint to plot."));
      return;
    }
    const series = await Promise.all(chosen.map((reading) => edge.get("/edge/asset/{code}/{reading}/series",
      { params: { path: { code, reading }, query: { ...w.query, group: w.group } } })));
    // Align the series on their buckets' times (seconds since the epoch).
    const times = [...new Set(series.flatMap((s) => s.map((e) => e.timestamp.getTime() / 1000)))].sort((a, b) => a - b);
    const index = new Map(times.map((t, i) => [t, i]));
    const data: uPlot.AlignedData = [times, ...series.map((s) => {
      const col: (number | null)[] = new Array(times.length).fill(null);
      for (const e of s) col[index.get(e.timestamp.getTime() / 1000)!] = e.average;
      return col;
    })];
    plotBox.dataset.points = String(times.length);
    // The extent of the values drawn, which the browser test checks.
    const ys = data.slice(1).flat().filter((v): v is number => typeof v === "number");
    plotBox.dataset.min = ys.length ? String(Math.min(...ys)) : "";
    plotBox.dataset.max = ys.length ? String(Math.max(...ys)) : "";
    const width = Math.max(320, plotBox.clientWidth || root.clientWidth - 16);
    const key = `${chosen.join(",")}@${w.span}`;
    if (plot && plotBox.dataset.keys === key) {
      plot.setData(data);
      return;
    }
    plot?.destroy();
    plotBox.replaceChildren();
    plotBox.dataset.keys = key;
    const colours = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"];
    plot = new uPlot({
      width, height: 320,
      // The axis is the window, not the data's extent (see xRange).
      scales: { x: { time: true, range: (u) => xRange(u.data[0] as number[], windows[Number(win.value)]!.span) } },
      series: [{}, ...chosen.map((k, i) => ({ label: k, stroke: colours[i % colours.length], width: 1.5, spanGaps: false, points: { show: true, size: 4 } }))],
      axes: [{}, {}],
      // The axis's span as drawn (s), which the browser test checks.
      hooks: { setScale: [(u, key) => { if (key === "x") plotBox.dataset.span = String(Math.round((u.scales.x!.max ?? 0) - (u.scales.x!.min ?? 0))); }] },
    }, data, plotBox);
  };
  win.addEventListener("change", () => void guard(draw));
  pick.addEventListener("change", () => void guard(draw));
  every(REFRESH_MS, async () => void (await guard(draw)));

  // The readings, a page at a time.
  const pageSize = 20;
  let skip = 0;
  const readings = h("div", { "aria-live": "polite" });
  const prev = h("button", { type: "button" }, "Newer");
  const next = h("button", { type: "button" }, "Older");
  const show = async () => {
    const page = await edge.get("/edge/asset/{code}", { params: { path: { code }, query: { limit: pageSize, skip } } });
    readings.replaceChildren(table(["Time", "Reading"], page.map((r) => [fmtTime(r.timestamp), JSON.stringify(r.reading)]),
      `Readings ${skip + 1}–${skip + page.length}`));
    prev.disabled = skip === 0;
    next.disabled = page.length < pageSize;
  };
  prev.addEventListener("click", () => { skip = Math.max(0, skip - pageSize); void guard(show); });
  next.addEventListener("click", () => { skip += pageSize; void guard(show); });
  root.append(h("h2", {}, "Readings"), readings, h("div", { class: "pager" }, prev, next));
  await guard(show);
}
