// Users and roles (admins only).
import { field, h, table } from "../lib/dom";
import { edge, isAdmin } from "../lib/session";
import { confirmAction, guard, notify } from "../lib/ui";

export async function usersPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Users and roles"));
  if (!isAdmin()) {
    root.append(h("p", {}, "Only admin users manage users and roles."));
    return;
  }
  const roles = await guard(() => edge.get("/edge/user/role"));
  const users = h("div");
  const refresh = async () => {
    const list = await edge.get("/edge/user");
    const roleName = new Map((roles?.roles ?? []).map((r) => [r.id, r.name]));
    users.replaceChildren(table(["Id", "User", "Role", "Real name", ""], list.users.map((u) => [String(u.userId), u.userName, roleName.get(u.roleId) ?? String(u.roleId), u.realName,
      h("button", { type: "button", onclick: () => void guard(async () => {
        if (!confirmAction(`Delete user ${u.userName}?`)) return;
        notify((await edge.delete("/edge/admin/{user_id}/delete", { params: { path: { user_id: u.userId } } })).message, "ok", "USRDL");
        await refresh();
      }) }, "Delete")])));
  };
  const uname = h("input", { name: "new-username", required: true, autocomplete: "off" });
  const pw = h("input", { name: "new-password", type: "password", required: true, autocomplete: "new-password" });
  const role = h("select", { name: "role" }, ...(roles?.roles ?? []).map((r) => h("option", { value: String(r.id) }, r.name)));
  const form = h("form", { "aria-label": "Create a user" }, h("h2", {}, "Create a user"), field("User name", uname), field("Password", pw), field("Role", role), h("button", { type: "submit" }, "Create"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      const res = await edge.post("/edge/admin/user", { body: { username: uname.value, password: pw.value, role_id: Number(role.value) } });
      notify(`User ${res.userName} created`, "ok", "USRAD");
      await refresh();
    });
  });
  root.append(users, table(["Role", "Description"], (roles?.roles ?? []).map((r) => [r.name, r.description]), "Roles"), form);
  await guard(refresh);
}
