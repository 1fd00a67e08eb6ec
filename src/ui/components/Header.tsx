import { Box, Text } from "ink";
import { Tone } from "./Tone.js";

/** The banner: URL, keys, endpoints and their signing secrets (printed once). */
export function Header({ lines }: { lines: readonly string[] }) {
  const [first, ...rest] = lines;
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text wrap="truncate-end">
        <Tone tone="strong">{first}</Tone>
      </Text>
      {rest.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
