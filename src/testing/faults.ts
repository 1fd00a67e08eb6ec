import { ApiError } from "../domain/errors.js";
import type { FaultRules } from "../resources/faults/service.js";
import type { PaysimFaults } from "./types.js";

/**
 * `faults` of the startPaysim() object: the rules of one company (the default one), changed
 * in process through the same service the API uses. A rule the API would refuse rejects with
 * an Error carrying the API's message and the field at fault.
 */
export function companyFaults(faults: FaultRules, companyId: string): PaysimFaults {
  return {
    async add(rule) {
      try {
        return faults.add(companyId, rule);
      } catch (error) {
        if (error instanceof ApiError)
          throw new Error(`faults.add: ${error.message}${error.param === undefined ? "" : ` (field: ${error.param})`}`, { cause: error });
        throw error;
      }
    },
    async clear() {
      faults.clear(companyId);
    },
  };
}
