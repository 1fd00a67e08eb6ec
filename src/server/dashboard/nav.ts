/** Where the dashboard starts for a browser without a session: the one sign-in address a person types. */
export const SIGN_IN_PATH = "/dashboard/login";

/**
 * The dashboard's sections, in the order of the navigation bar, each at its path under the
 * session's own base (`/dashboard/<scope>`). A new section is one page module and one line here.
 */
export const NAV = [
  { id: "events", label: "Events", path: "/events" },
  { id: "payment_intents", label: "Payment intents", path: "/payment_intents" },
  { id: "payouts", label: "Payouts", path: "/payouts" },
  { id: "webhook_endpoints", label: "Webhook endpoints", path: "/webhook_endpoints" },
  { id: "faults", label: "Faults", path: "/faults" },
  { id: "report", label: "Report", path: "/report" },
  { id: "coverage", label: "Coverage", path: "/coverage" },
  { id: "clock", label: "Clock", path: "/clock" },
  { id: "instances", label: "Instances", path: "/instances" },
] as const;

export type Section = (typeof NAV)[number]["id"];
