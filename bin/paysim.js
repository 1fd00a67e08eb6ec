#!/usr/bin/env node
import { main } from "../dist/paysim-cli.js";

await main();
