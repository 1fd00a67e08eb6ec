/**
 * The dashboard's sections, in the order of the navigation bar. A new section
 * is one page module and one line here.
 */
export const NAV = [
  { id: "events", label: "Events", href: "/dashboard/events" },
  { id: "payment_intents", label: "Payment intents", href: "/dashboard/payment_intents" },
  { id: "payouts", label: "Payouts", href: "/dashboard/payouts" },
  { id: "webhook_endpoints", label: "Webhook endpoints", href: "/dashboard/webhook_endpoints" },
  { id: "faults", label: "Faults", href: "/dashboard/faults" },
  { id: "clock", label: "Clock", href: "/dashboard/clock" },
] as const;

export type Section = (typeof NAV)[number]["id"];
