import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** What `paysim start` leaves for the other commands: where it runs and with which key. */
export interface InstanceFile {
  url: string;
  secret_key: string;
  db: string;
  pid: number;
  started_at: string;
  webhook_endpoints: { id: string; url: string; secret: string }[];
}

/** instance.json sits beside the database; for ":memory:" in `.paysim/`. */
export function instanceFilePath(db: string, cwd = process.cwd()): string {
  return db === ":memory:" ? join(cwd, ".paysim", "instance.json") : join(dirname(db), "instance.json");
}

export function readInstanceFile(path: string): InstanceFile | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as InstanceFile;
  } catch {
    return undefined;
  }
}

/** Written with mode 0600: it holds the secret key. */
export function writeInstanceFile(path: string, content: InstanceFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
