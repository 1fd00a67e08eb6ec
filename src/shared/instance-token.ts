import { randomBytes } from "node:crypto";

/**
 * The token of one `paysim start`: kept in its instance files (mode 0600) and known to its server,
 * which answers its pid on /health to a caller naming the token in this header. `paysim stop`
 * proves with it that the process an entry names is that paysim before signalling it.
 */
export const INSTANCE_TOKEN_HEADER = "paysim-instance-token";

/** A new token: 128 random bits in hex. */
export const newInstanceToken = (): string => randomBytes(16).toString("hex");
