import { createPayoutSimulator, registerPayoutMoves } from "../../sim/payout-simulator.js";
import { defineResourceModule } from "../resource-module.js";
import { payoutAnswer, payoutSchema } from "./contract.js";
import { PAYOUT_OPERATIONS, transitionPayout } from "./operations.js";
import { payout } from "./resource.js";
import { createPayoutService } from "./service.js";
import { createPayoutsRepo } from "./store.js";

/**
 * Payouts: their table's statements (its steps are paysim's 020 and later, released with the jobs
 * table), the service, which plans the automatic moves with the payout simulator and makes them
 * when their jobs run, /v1/payouts and the sandbox's drawn moves, and the dashboard's pages.
 */
export default defineResourceModule(payout, {
  store: { migrations: [], repo: createPayoutsRepo, tables: [] },
  service: (deps) => {
    const service = createPayoutService(deps, createPayoutSimulator({ scheduler: deps.scheduler, mode: deps.payoutMode, destinations: deps.destinations }));
    registerPayoutMoves(deps.scheduler, service.moveAutomatically);
    return service;
  },
  operations: [...PAYOUT_OPERATIONS, transitionPayout],
  schema: payoutSchema,
  answer: payoutAnswer,
  page: async () => (await import("./page.js")).payoutsPage,
});
