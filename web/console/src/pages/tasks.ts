// Tasks: the latest runs of scheduled processes.
import { fmtTime, h, table } from "../lib/dom";
import { edge } from "../lib/session";
import { guard } from "../lib/ui";

export async function tasksPage(root: HTMLElement): Promise<void> {
  root.append(h("h1", {}, "Tasks"));
  const page = await guard(() => edge.get("/edge/task", { params: { query: { limit: 50 } } }));
  if (!page) return;
  root.append(table(["Name", "Process", "State", "Started", "Ended", "Reason"],
    page.tasks.map((t) => [t.name, t.processName, t.state, fmtTime(t.startTime), fmtTime(t.endTime), t.reason])));
}
