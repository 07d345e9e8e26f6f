/** Who made a request, as Backstage names the user; undefined for a service. */
export function actorOf(principal: unknown): string | undefined {
  const ref = (principal as { userEntityRef?: unknown })?.userEntityRef;
  return typeof ref === 'string' ? ref : undefined;
}
