// Configuration: every category, and a category's items as a form.
import { enc, h, table } from "../lib/dom";
import { categoryForm } from "../lib/items";
import { edge } from "../lib/session";
import { guard } from "../lib/ui";

export async function configPage(root: HTMLElement, name: string): Promise<void> {
  if (name) return categoryPage(root, name);
  root.append(h("h1", {}, "Configuration"));
  const list = await guard(() => edge.get("/edge/category"));
  if (!list) return;
  root.append(table(["Category", "Description"], list.categories.map((c) => [h("a", { href: `#/config/${enc(c.key)}` }, c.key), c.description])));
}

async function categoryPage(root: HTMLElement, name: string): Promise<void> {
  root.append(h("h1", {}, `Configuration: ${name}`), h("p", {}, h("a", { href: "#/config" }, "All categories")));
  const cat = await guard(() => edge.get("/edge/category/{name}", { params: { path: { name } } }));
  if (!cat) return;
  root.append(categoryForm(name, cat));
}
