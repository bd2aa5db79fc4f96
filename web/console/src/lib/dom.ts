// DOM helpers shared by every page: element builder, labelled fields,
// tables and time formatting.

export type Child = Node | string | null | undefined | false;
export type Attrs = Record<string, string | boolean | number | undefined | ((ev: Event) => void)>;

/** h builds an element with attributes (on* are listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

export type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

let uid = 0;
/** field returns a labelled control: the label names the input for screen readers. */
export function field(label: string, input: Control, hint?: string): HTMLElement {
  input.id ||= `f${++uid}`;
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, hint ? h("small", {}, hint) : null);
}

/** checkbox returns a labelled checkbox. */
export function checkbox(label: string, name: string, checked: boolean): { box: HTMLInputElement; el: HTMLElement } {
  const box = h("input", { type: "checkbox", name, checked });
  box.id = `f${++uid}`;
  return { box, el: h("div", { class: "field" }, h("label", { for: box.id, class: "inline" }, box, ` ${label}`)) };
}

/** select returns a select of the given values (value, label). */
export function select(name: string, options: (string | [string, string])[], value?: string): HTMLSelectElement {
  const s = h("select", { name }, ...options.map((o) => (typeof o === "string" ? h("option", { value: o }, o) : h("option", { value: o[0] }, o[1]))));
  if (value !== undefined) s.value = value;
  return s;
}

/** button returns a plain button running onClick. */
export function button(label: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  return h("button", { type: "button", ...attrs, onclick: () => onClick() }, label);
}

/** table returns a table with column headers, rows and an optional caption. */
export function table(headers: string[], rows: (Node | string)[][], caption?: string): HTMLTableElement {
  return h("table", {},
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, ...headers.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", {}, c))))));
}

/** fmtTime shows a time as the gateway writes it (UTC, no T or Z). */
export const fmtTime = (d: Date | string | undefined): string => (d instanceof Date ? d.toISOString().replace("T", " ").replace("Z", "") : d ?? "");

/** enc encodes a route parameter for a fragment link. */
export const enc = encodeURIComponent;
