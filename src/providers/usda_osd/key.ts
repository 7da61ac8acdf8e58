/** The series key of the `name` path parameter, or a 422 saying what a series name looks like. */
import { ValidationError } from "../../errors";
import { SERIES_NAME_MAX_LENGTH, seriesKey } from "./parse";
import { OSD_PROVIDER_ID } from "./series";

/** What a series name looks like, in words: the 422 and the route's document of `name`. */
export const SERIES_NAME_SYNTAX = `a soil series name, case-insensitive: letters, at most four words separated by single spaces or underscores (Clarion, new cambria, NEW_CAMBRIA), at most ${SERIES_NAME_MAX_LENGTH} characters`;

export function seriesKeyOrThrow(name: string): string {
  const key = seriesKey(name);
  if (key !== null) return key;
  const shown = name.length > SERIES_NAME_MAX_LENGTH ? `${name.slice(0, SERIES_NAME_MAX_LENGTH)}…` : name;
  throw new ValidationError(
    `Path parameter 'name' must be ${SERIES_NAME_SYNTAX}; got '${shown.replace(/[\u0000-\u001f\u007f]/g, "?")}'.`,
    OSD_PROVIDER_ID,
  );
}
