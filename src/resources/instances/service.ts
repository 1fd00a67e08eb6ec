import type { CreatedInstanceResource, DeletedInstanceResource, InstanceInput, InstanceResource } from "./contract.js";
import { ApiError } from "../../domain/errors.js";
import type { Ids } from "../../domain/ids.js";
import type { Clock } from "../../runtime/clock.js";
import type { IdempotentAnswer, IdempotentRequest, RunIdempotently } from "../../services/idempotency.js";

/**
 * How many instances each company of a paysim keeps running at once (docs/testing.md,
 * "Instances"): per company, so that one company's suite cannot starve another's. Companies come
 * only from the config, so the process's total stays bounded by their number.
 */
export const MAX_LIVE_INSTANCES = 64;

export type { InstanceInput, InstanceResource } from "./contract.js";

/** A running instance, as the paysim that started it holds it. */
export interface StartedInstance {
  url: string;
  secretKey: string;
  signingSecret: string | null;
  /** A fresh one-time link that signs a browser in to the instance's own dashboard. */
  dashboardLoginUrl(): string;
  /** Stops it: its port closes, its deliveries and waits end, its in-memory data is gone. */
  close(): Promise<void>;
}

/** Starts one instance from a checked body for a company (whose coverage it rolls up into); the wiring (paysim.ts) builds it as any paysim is built. */
export type StartInstance = (input: InstanceInput, companyId: string) => Promise<StartedInstance>;

interface Entry {
  companyId: string;
  resource: InstanceResource;
  instance: StartedInstance;
}

export interface InstanceRegistryDeps {
  clock: Clock;
  ids: Ids;
  runIdempotently: RunIdempotently;
  /** How an instance is started; undefined in an instance that another paysim started, which starts none. */
  start: StartInstance | undefined;
}

/**
 * The instances a paysim started (docs/testing.md, "Instances"): each a whole paysim of its own in
 * this process, held here, in memory, for the company that asked. At most MAX_LIVE_INSTANCES run at
 * once for each company, those still starting included; `closeAll` stops them all when their
 * parent stops.
 */
export function createInstanceRegistry({ clock, ids, runIdempotently, start }: InstanceRegistryDeps) {
  const live = new Map<string, Entry>();
  /** Instances still starting, with the company that asked: they count towards its limit, and a stopping parent stops them too. */
  const starting = new Map<Promise<StartedInstance>, string>();
  let closed = false;

  const find = (companyId: string, id: string): Entry => {
    const entry = live.get(id);
    if (!entry || entry.companyId !== companyId) throw new ApiError("not_found", `No such instance: "${id}".`);
    return entry;
  };

  /** The company's instances running or still starting. */
  const countOf = (companyId: string): number => {
    let count = 0;
    for (const entry of live.values()) if (entry.companyId === companyId) count++;
    for (const owner of starting.values()) if (owner === companyId) count++;
    return count;
  };

  return {
    /** Whether this paysim is an instance another paysim started: its key came from that start's answer. */
    startedByAnother: start === undefined,

    /** `POST /v1/sandbox/instances` with its validated body: starts the instance, answers once it serves (replayed by its Idempotency-Key). */
    create(request: IdempotentRequest, input: InstanceInput): Promise<IdempotentAnswer<CreatedInstanceResource>> {
      return runIdempotently.prepared(
        request,
        async () => {
          if (start === undefined) {
            throw new ApiError(
              "nested_instance",
              "This paysim is an instance another paysim started, and cannot start instances of its own: send this request to the paysim that started it.",
            );
          }
          if (closed) throw shuttingDown();
          if (countOf(request.companyId) >= MAX_LIVE_INSTANCES) {
            throw new ApiError(
              "instance_limit",
              `At most ${MAX_LIVE_INSTANCES} instances run at once for a company; stop one first (DELETE /v1/sandbox/instances/:id).`,
            );
          }
          const started = start(input, request.companyId);
          starting.set(started, request.companyId);
          let instance: StartedInstance;
          try {
            instance = await started;
          } finally {
            starting.delete(started);
          }
          if (closed) {
            await instance.close();
            throw shuttingDown();
          }
          return instance;
        },
        (_work, instance) => {
          if (closed) throw shuttingDown(); // the instance is discarded (closed) below
          const resource: InstanceResource = {
            id: ids.newId("ins"),
            object: "instance",
            url: instance.url,
            secret_key: instance.secretKey,
            signing_secret: instance.signingSecret,
            created_at: clock.nowIso(),
          };
          live.set(resource.id, { companyId: request.companyId, resource, instance });
          return { status: 201, resource: { ...resource, dashboard_login_url: instance.dashboardLoginUrl() } };
        },
        async (instance) => {
          for (const [id, entry] of live) if (entry.instance === instance) live.delete(id);
          await instance.close();
        },
      );
    },

    /** The company's live instances, oldest first. */
    list(companyId: string): InstanceResource[] {
      return [...live.values()].filter((entry) => entry.companyId === companyId).map((entry) => entry.resource);
    },

    /** Stops one of the company's instances; resolves once its port is closed. */
    async stop(companyId: string, id: string): Promise<DeletedInstanceResource> {
      const entry = find(companyId, id);
      live.delete(id);
      await entry.instance.close();
      return { id, object: "instance", deleted: true };
    },

    /** A fresh one-time link to the dashboard of one of the company's instances. */
    dashboardLoginUrl(companyId: string, id: string): string {
      return find(companyId, id).instance.dashboardLoginUrl();
    },

    /**
     * Starts no more instances, for good: the parent is stopping. A start in flight answers
     * `503 shutting_down` once its instance has started (and is stopped again), never a closed
     * connection.
     */
    refuseNew(): void {
      closed = true;
    },

    /** Stops every instance, for good: the parent is stopping. */
    async closeAll(): Promise<void> {
      closed = true;
      const stopping = [...live.values()].map((entry) => entry.instance.close());
      live.clear();
      const stillStarting = await Promise.allSettled([...starting.keys()]);
      for (const outcome of stillStarting) if (outcome.status === "fulfilled") stopping.push(outcome.value.close());
      await Promise.all(stopping);
    },
  };
}

export type InstanceRegistry = ReturnType<typeof createInstanceRegistry>;

const shuttingDown = () =>
  new ApiError("shutting_down", "paysim is stopping: the instance was not started (or was stopped again). Start paysim again and repeat the request.");
