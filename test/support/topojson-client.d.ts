/** topojson-client ships no types; the layout test reads county outlines with `feature` only. */
declare module "topojson-client" {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  export function feature(topology: any, object: any): any;
}
