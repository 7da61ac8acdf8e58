// The one runtime global client.ts reads besides fetch (no @types/node needed for that).
declare const process: { env: Record<string, string | undefined> };
