// Filter pipelines: a service's filters in order (add, remove, reorder,
// configure, enable or disable each) and the tracking events they produce.
import { EdgeApiError } from "@edged/client";
import { button, enc, field, fmtTime, h, select, table } from "../lib/dom";
import { catalogue, itemsForm, type ItemsForm, type Plugin } from "../lib/catalogue";
import { categoryForm } from "../lib/items";
import { edge } from "../lib/session";
import { every, guard, messageOf, notify, REFRESH_MS } from "../lib/ui";

export async function filtersPage(root: HTMLElement, service: string): Promise<void> {
  if (!service) return allFilters(root);
  root.append(h("h1", {}, `Pipeline of ${service}`), h("p", {}, h("a", { href: "#/filters" }, "All filters"), " · ", h("a", { href: `#/config/${enc(service)}` }, "Service configuration")));
  const steps = h("ol", { class: "pipeline", "aria-label": "Filters, in the order they run" });
  const detail = h("div");
  const events = h("div");
  let pipeline: string[] = [];
  const save = async (next: string[], what: string) => {
    const r = await edge.put("/edge/filter/{service_name}/pipeline", { params: { path: { service_name: service } }, body: { pipeline: next } });
    pipeline = r.pipeline;
    notify(`${what}; the pipeline of ${service} is now ${pipeline.length ? pipeline.join(" → ") : "empty"}`, "ok", "CONCH");
    await show();
  };
  const show = async () => {
    const [p, all] = await Promise.all([
      edge.get("/edge/filter/{service_name}/pipeline", { params: { path: { service_name: service } } }),
      edge.get("/edge/filter")]);
    pipeline = p.pipeline;
    const plugins = new Map(all.filters.map((f) => [f.name, f.plugin]));
    const enabled = await Promise.all(pipeline.map((f) => edge.get("/edge/category/{name}/{item}", { params: { path: { name: f, item: "enable" } } }).then((i) => i.value.toLowerCase() === "true", () => true)));
    steps.replaceChildren(...pipeline.map((f, i) => h("li", { "data-filter": f },
      h("strong", {}, f), ` (${plugins.get(f) ?? "?"}) `, h("span", { class: enabled[i] ? "st running" : "st shutdown" }, enabled[i] ? "enabled" : "disabled"),
      button("Up", () => void guard(() => save(move(pipeline, i, -1), `${f} moved up`)), { disabled: i === 0, "aria-label": `Move ${f} up` }),
      button("Down", () => void guard(() => save(move(pipeline, i, 1), `${f} moved down`)), { disabled: i === pipeline.length - 1, "aria-label": `Move ${f} down` }),
      button(enabled[i] ? "Disable" : "Enable", () => void guard(async () => {
        await edge.put("/edge/category/{name}/{item}", { params: { path: { name: f, item: "enable" } }, body: { value: String(!enabled[i]) } });
        notify(`${f} ${enabled[i] ? "disabled" : "enabled"}`, "ok", "CONCH");
        await show();
      }), { "aria-label": `${enabled[i] ? "Disable" : "Enable"} ${f}` }),
      button("Configure", () => void guard(async () => {
        const cat = await edge.get("/edge/category/{name}", { params: { path: { name: f } } });
        detail.replaceChildren(h("h2", {}, `Configuration of ${f}`), categoryForm(f, cat));
        detail.querySelector<HTMLElement>("input, select, textarea")?.focus();
      }), { "aria-label": `Configure ${f}` }),
      button("Remove", () => void guard(() => save(pipeline.filter((x) => x !== f), `${f} removed from the pipeline`)), { "aria-label": `Remove ${f}` }))));
    if (pipeline.length === 0) steps.replaceChildren(h("li", {}, "No filters: readings pass unchanged."));
    // Add an existing instance not yet in the pipeline.
    const spare = all.filters.map((f) => f.name).filter((f) => !pipeline.includes(f));
    addExisting.replaceChildren(...spare.map((f) => h("option", { value: f }, `${f} (${plugins.get(f)})`)));
    addExistingBtn.disabled = spare.length === 0;
  };
  const showTrack = async () => {
    const track = await edge.get("/edge/track", { params: { query: { service } } });
    events.replaceChildren(h("h2", {}, "Tracking events"),
      track.track.length === 0 ? h("p", {}, "No tracking events yet.") :
        table(["Event", "Asset", "Plugin", "Time", "Deprecated"], track.track.map((t) => [t.event, t.asset, t.plugin, fmtTime(t.timestamp), t.deprecatedTimestamp]), `${track.track.length} events of ${service}`));
  };
  const addExisting = h("select", { name: "existing" });
  const addExistingBtn = button("Add to the end", () => void guard(() => save([...pipeline, addExisting.value], `${addExisting.value} added`)), { name: "add-existing" });
  const create = await newFilterForm(async (name) => save([...pipeline, name], `Filter ${name} created and added`));
  root.append(steps, h("section", { class: "panel" }, h("h2", {}, "Add a filter"),
    h("div", { class: "controls" }, field("Existing filter", addExisting), addExistingBtn)), create, detail, events);
  await guard(show);
  every(REFRESH_MS * 2, async () => void (await guard(showTrack)));
}

function move(list: string[], i: number, by: number): string[] {
  const out = list.slice();
  const [x] = out.splice(i, 1);
  out.splice(i + by, 0, x!);
  return out;
}

/** newFilterForm creates a filter instance from the catalogue's filter plugins. */
async function newFilterForm(then: (name: string) => Promise<void>): Promise<HTMLElement> {
  const plugins: Plugin[] = (await guard(() => catalogue("filter"))) ?? [];
  const name = h("input", { name: "filter-name", required: true });
  const plugin = select("filter-plugin", plugins.map((p) => p.name));
  const items = h("div");
  const err = h("p", { class: "error", "aria-live": "polite" });
  let shown: ItemsForm | undefined;
  const showPlugin = () => {
    const p = plugins.find((x) => x.name === plugin.value);
    shown = p ? itemsForm(p, "flt") : undefined;
    items.replaceChildren(shown?.el ?? "");
  };
  plugin.addEventListener("change", showPlugin);
  showPlugin();
  const form = h("form", { "aria-label": "Create a filter" }, h("h2", {}, "Create a filter"), field("Name", name), field("Plugin", plugin), items, err,
    h("button", { type: "submit" }, "Create and add"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    err.textContent = "";
    shown?.clear();
    void (async () => {
      try {
        await edge.post("/edge/filter", { body: { name: name.value, plugin: plugin.value, filter_config: shown?.values() ?? {} } });
        await then(name.value);
        name.value = "";
      } catch (e) {
        if (!(e instanceof EdgeApiError && e.status === 400 && shown?.showError(messageOf(e)))) err.textContent = messageOf(e);
        await guard(() => Promise.reject(e));
      }
    })();
  });
  return form;
}

async function allFilters(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Filters"));
  const [filters, south, north] = await Promise.all([guard(() => edge.get("/edge/filter")), guard(() => edge.get("/edge/south")), guard(() => edge.get("/edge/north"))]);
  const services = [...(south?.services ?? []).map((s) => s.name), ...(north?.services ?? []).map((s) => s.name)];
  root.append(h("h2", {}, "Pipelines"), services.length === 0 ? h("p", {}, "No services yet.") :
    h("ul", {}, ...services.map((s) => h("li", {}, h("a", { href: `#/filters/${enc(s)}` }, s)))),
  h("h2", {}, "Filter instances"), table(["Filter", "Plugin", "Used by"], (filters?.filters ?? []).map((f) => [
    h("a", { href: `#/config/${enc(f.name)}` }, f.name), f.plugin, f.users.join(", ")])));
}
