/** The contracts of /v1/sandbox/faults (docs/faults.md). */
import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { listQuerySchema } from "../../contracts/common.js";
import { FAULT_KINDS, FAULT_METHODS } from "../../domain/faults.js";

/** The body of `POST /v1/sandbox/faults`: a rule of the domain's own shape. */
export { faultRuleSchema as faultRuleInput } from "../../domain/faults.js";

/** A fault rule as the API shows it. */
export const faultSchema = z.lazy(() =>
  z.strictObject({
    id: idOf("flt"),
    object: z.literal("fault"),
    fault: z.enum(FAULT_KINDS),
    match: z.strictObject({ method: z.enum(FAULT_METHODS).nullable(), path: z.string().nullable() }),
    times: z.number().int().min(1),
    remaining: z.number().int().min(0),
    probability: z.number().min(0).max(1),
    latency_ms: z.number().int().min(1).nullable(),
    retry_after_seconds: z.number().int().min(0).nullable(),
    created_at: timestampSchema,
  }),
);

export type FaultRuleResource = z.infer<typeof faultSchema>;

/** What `DELETE /v1/sandbox/faults/:id` answers. */
export const deletedFaultRuleSchema = z.lazy(() => z.strictObject({ id: idOf("flt"), object: z.literal("fault"), deleted: z.literal(true) }));

/** What `DELETE /v1/sandbox/faults` answers: how many rules it removed. */
export const faultsClearedSchema = z.lazy(() => z.strictObject({ object: z.literal("faults_cleared"), deleted: z.number().int().min(0) }));

/** The query of `GET /v1/sandbox/faults`: a page of the rules, oldest first. */
export const listFaultRulesQuery = listQuerySchema("flt");
