// Ink stops following terminal resizes when it believes it runs in CI (CI or
// CONTINUOUS_INTEGRATION set): these tests render as on a developer's terminal.
// Imported first, before anything loads Ink.
process.env.CI = "0";
process.env.CONTINUOUS_INTEGRATION = "0";
