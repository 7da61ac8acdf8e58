/** A free TCP port on 127.0.0.1 (bind to 0, read it, release it), for servers started as child processes. */
export function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}
