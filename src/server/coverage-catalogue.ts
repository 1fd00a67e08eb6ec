import type { ErrorCode } from "../domain/errors.js";
import { EVENT_TYPES } from "../domain/events.js";
import { byMachine, MACHINE_MOVES, type Machine } from "../domain/resources.js";
import type { CoverageCatalogue } from "../services/coverage.js";
import { HTTP_STATUS } from "./errors.js";
import { OPERATION_OWN_CODES, type OperationDoc } from "./operations/define.js";

/** The definitions the catalogue is read from: the ones the server runs, unless a test passes others. */
export interface CatalogueTables {
  machineMoves: Record<Machine, readonly { from: string; to: string }[]>;
  eventTypes: readonly string[];
  errorCodes: readonly ErrorCode[];
}

export const SERVED_TABLES: CatalogueTables = {
  machineMoves: MACHINE_MOVES,
  eventTypes: EVENT_TYPES,
  errorCodes: Object.keys(HTTP_STATUS) as ErrorCode[],
};

/** Whether requests to an operation are counted: the sandbox controls and the document itself are not. */
export const isCountedOperation = (operation: OperationDoc) => !operation.path.startsWith("/v1/sandbox") && operation.noKey !== true;

/**
 * What the coverage report covers (docs/testing.md, "Coverage"), read from the mounted operations
 * and the tables the server runs, so that it follows them: the counted operations, each drawn
 * move once ("created->canceled" is drawn from two triggers), the event types, and the error codes
 * a counted request can be answered with (those only some operations answer, when none of them is counted, are left out).
 */
export function coverageCatalogue(operations: readonly OperationDoc[], tables: CatalogueTables = SERVED_TABLES): CoverageCatalogue {
  const countedOperations = operations.filter(isCountedOperation);
  const owned = new Set(countedOperations.flatMap((operation) => operation.ownErrors ?? []));
  const moves = (table: readonly { from: string; to: string }[]) => [...new Set(table.map(({ from, to }) => `${from}->${to}`))];
  return {
    operations: countedOperations.map((operation) => ({ operationId: operation.operationId, route: `${operation.method.toUpperCase()} ${operation.path}` })),
    transitions: byMachine((machine) => moves(tables.machineMoves[machine])),
    events: tables.eventTypes,
    errors: tables.errorCodes.filter((code) => !OPERATION_OWN_CODES.includes(code) || owned.has(code)),
  };
}
