// In paysim's single executable, src/store/sqlite-driver.ts loads this in place of better-sqlite3
// (scripts/build-executable.mjs arranges it): better-sqlite3 itself, handed the binding the
// executable carries through its nativeBinding option, as it cannot find one in a node_modules.
const BetterSqlite3 = require("better-sqlite3");
const { sqliteAddon } = require("./runtime.mjs");

class Database extends BetterSqlite3 {
  constructor(filename, options) {
    super(filename, { ...options, nativeBinding: sqliteAddon() });
  }
}

module.exports = Database;
