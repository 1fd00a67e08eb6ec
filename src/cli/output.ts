import { maskText } from "../domain/masking.js";

/** Where a command writes; tests and the live view may swap it. Every line is masked (SPEC §9). */
export interface Output {
  line(text: string): void;
  error(text: string): void;
}

export const consoleOutput: Output = {
  line: (text) => process.stdout.write(`${maskText(text)}\n`),
  error: (text) => process.stderr.write(`${maskText(text)}\n`),
};
