// Backups: create, list, download, restore, delete.
import type { Schema } from "@edged/client";
import { button, fmtTime, h, table } from "../lib/dom";
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
            notify(r.message, "ok", "BKRST");
          }), { disabled: b.status !== "COMPLETED", "aria-label": `Restore backup ${b.id}` }),
          button("Delete", () => void guard(async () => {
            if (!confirmAction(`Delete backup ${b.id}?`)) return;
            notify((await edge.delete("/edge/backup/{backup_id}", { params: { path: { backup_id: b.id } } })).message);
            await refresh();
          }), { disabled: b.status === "RUNNING", "aria-label": `Delete backup ${b.id}` }))])));
  };
  root.append(h("p", {}, create), list,
    h("p", {}, "Backups are taken on the ", h("a", { href: "#/config/BACKUP" }, "BACKUP"), " category's settings (retention, readings included) and by the schedule ", h("code", {}, "backup"), "."));
  every(REFRESH_MS, async () => void (await guard(refresh)));
}
