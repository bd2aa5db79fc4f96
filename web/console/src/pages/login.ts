// The login form: the console always asks for a user name and password.
import { field, h } from "../lib/dom";
import { edge, remember } from "../lib/session";
import { guard, hooks, notify } from "../lib/ui";

export function loginPage(): HTMLElement {
  const user = h("input", { name: "username", autocomplete: "username", required: true });
  const pass = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "login", "aria-label": "Log in" },
    h("h1", {}, "edged console"),
    field("User name", user), field("Password", pass),
    h("button", { type: "submit" }, "Log in"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void guard(async () => {
      const res = await edge.login(user.value, pass.value);
      remember(res.token, res.admin);
      notify(`Logged in as ${user.value}`);
      if (!location.hash || location.hash === "#/login") location.hash = "#/dashboard";
      hooks.rerender();
    });
  });
  return form;
}
