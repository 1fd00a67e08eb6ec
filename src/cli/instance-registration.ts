import { resolve } from "node:path";
import type { PaysimInstance } from "../paysim.js";
import {
  databaseRecordPath,
  ownedByAnotherLiveServer,
  pruneRegistry,
  readInstanceFile,
  registryProblem,
  registryEntryPath,
  removeInstanceFile,
  writeInstanceFile,
  type InstanceFile,
} from "./instance-file.js";

/**
 * Tells the other commands about a server `paysim start` just started: its entry in the
 * registry of the folder it runs from (removed again when the process exits), and for a
 * database file, the database's record beside it. Neither ever replaces a file that
 * another running, answering paysim owns.
 */
export async function registerInstance(instance: PaysimInstance, db: string, cwd: string, token: string): Promise<void> {
  const content: InstanceFile = {
    url: instance.url,
    secret_key: instance.secretKey,
    db: db === ":memory:" ? db : resolve(db),
    pid: process.pid,
    started_at: instance.startedAt,
    webhook_endpoints: instance.companies[0]!.endpoints.map((e) => ({ id: e.id, url: e.url, secret: e.secret })),
    token,
  };

  // Checked before the start too; a link put there since is refused all the same.
  const problem = registryProblem(cwd);
  if (problem !== undefined) throw new Error(problem);
  pruneRegistry(cwd);
  const entryPath = registryEntryPath(cwd, process.pid);
  writeInstanceFile(entryPath, content);
  // Runs on every way out that lets JavaScript run (a clean stop, q in the live view, an
  // uncaught error); a SIGKILL leaves the entry, which the commands skip and the next start prunes.
  process.on("exit", () => removeInstanceFile(entryPath));

  const recordPath = databaseRecordPath(db);
  // Two databases in one folder share the record: the one serving now keeps it.
  if (recordPath !== undefined && !(await ownedByAnotherLiveServer(readInstanceFile(recordPath)))) {
    writeInstanceFile(recordPath, content);
  }
}
