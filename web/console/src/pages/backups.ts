// Backups: create, list, download, restore, delete; the backup schedule
// (when it runs, enabled or not) and the BACKUP settings (retention).
import type { Schema } from "@edged/client";
import { button, fmtTime, h, table } from "../lib/dom";
import { categoryForm } from "../lib/items";
import { edge, isAdmin } from "../lib/session";
import { confirmAction, every, guard, notify, REFRESH_MS } from "../lib/ui";

export async function backupsPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Backups"));
  if (!isAdmin()) {
    root.append(h("p", {}, "Only admin users see and take backups: a backup holds the users' password hashes."));
    return;
  }
  const list = h("div", { "aria-live": "polite" });
  const create = button("Create a backup", () => void guard(async () => {
    const res = await edge.post("/edge/backup");
    notify(`${res.message} (backup ${res.id})`, "ok", "BKEXC");
    await refresh();
  }), { name: "create-backup" });
  const download = async (b: Schema<"Backup">) => {
    // The file is binary: read through the SDK's raw client as a blob and
    // handed to the browser as a download.
    const r = await edge.raw.GET("/edge/backup/{backup_id}/download", { params: { path: { backup_id: b.id } }, parseAs: "blob" });
    if (!r.response.ok || !r.data) throw new Error(`download of backup ${b.id}: HTTP ${r.response.status}`);
    const url = URL.createObjectURL(r.data as Blob);
    const a = h("a", { href: url, download: `backup-${b.id}.tar.gz`, "data-size": (r.data as Blob).size });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    notify(`Backup ${b.id} downloaded (${(r.data as Blob).size} bytes)`);
    list.dataset.downloaded = String((r.data as Blob).size);
  };
  const refresh = async () => {
    const res = await edge.get("/edge/backup", { params: { query: { limit: 50 } } });
    list.replaceChildren(res.backups.length === 0 ? h("p", {}, "No backups yet.") :
      table(["Id", "Date", "Status", "Size (bytes)", "Readings", "Actions"], res.backups.map((b) => [
        String(b.id), fmtTime(b.date), h("span", { class: `bk ${b.status}` }, b.status + (b.reason ? `: ${b.reason}` : "")), String(b.size), b.readings ? "yes" : "no",
        h("span", { class: "actions" },
          button("Download", () => void guard(() => download(b)), { disabled: b.status !== "COMPLETED", "aria-label": `Download backup ${b.id}` }),
          button("Restore", () => void guard(async () => {
            if (!confirmAction(`Restore backup ${b.id}? The gateway restarts and its configuration becomes the backup's.`)) return;
            const r = await edge.put("/edge/backup/{backup_id}/restore", { params: { path: { backup_id: b.id } } });
            notify(`${r.message}: the gateway restarts on backup ${b.id}; log in again when it is back`, "ok", "BKRST");
          }), { disabled: b.status !== "COMPLETED", "aria-label": `Restore backup ${b.id}` }),
          button("Delete", () => void guard(async () => {
            if (!confirmAction(`Delete backup ${b.id}?`)) return;
            notify((await edge.delete("/edge/backup/{backup_id}", { params: { path: { backup_id: b.id } } })).message);
            await refresh();
          }), { disabled: b.status === "RUNNING", "aria-label": `Delete backup ${b.id}` }))])));
  };
  const sched = h("section", { class: "panel", "aria-label": "Backup schedule" });
  const showSchedule = async () => {
    const s = (await edge.get("/edge/schedule")).schedules.find((x) => x.name === "backup");
    if (!s) {
      sched.replaceChildren(h("h2", {}, "Schedule"), h("p", { class: "ro-note" }, "The gateway has no backup schedule."));
      return;
    }
    const toggle = (on: boolean) => () => void guard(async () => {
      const r = await edge.put(on ? "/edge/schedule/enable" : "/edge/schedule/disable", { body: { schedule_name: s.name } });
      notify(`${r.message}: automatic backups ${on ? "on" : "off"}`, "ok", "SCHCH");
      await showSchedule();
      // The button became its opposite: the keyboard stays on it.
      sched.querySelector("button")?.focus();
    });
    sched.replaceChildren(h("h2", {}, "Schedule"),
      h("p", { "data-enabled": String(s.enabled) }, `Automatic backups ${whenRuns(s)}: `, h("strong", {}, s.enabled ? "enabled" : "disabled"), " ",
        s.enabled ? button("Disable", toggle(false), { name: "schedule-disable", "aria-label": "Disable automatic backups" })
          : button("Enable", toggle(true), { name: "schedule-enable", "aria-label": "Enable automatic backups" })));
  };
  root.append(h("p", {}, create), list, sched);
  const cat = await guard(() => edge.get("/edge/category/{name}", { params: { path: { name: "BACKUP" } } }));
  if (cat) root.append(h("h2", {}, "Settings"), categoryForm("BACKUP", cat, "Backup settings"));
  await guard(showSchedule);
  every(REFRESH_MS, async () => void (await guard(refresh)));
}

const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** whenRuns says when a schedule runs, in words. */
export function whenRuns(s: Schema<"Schedule">): string {
  const hms = (n: number) => [Math.floor(n / 3600), Math.floor(n / 60) % 60, n % 60].map((x) => String(x).padStart(2, "0")).join(":");
  switch (s.type) {
    case "TIMED": return `run ${s.day ? `every ${days[s.day - 1]}` : "daily"} at ${hms(s.time)} UTC`;
    case "INTERVAL": return `run every ${hms(s.repeat)}`;
    case "STARTUP": return "run at start";
    default: return "run only when asked";
  }
}
