// Files imported `with { type: "text" }` (embedded by `bun build --compile`): the drizzle migrations.
declare module "*.sql" {
  const text: string;
  export default text;
}
