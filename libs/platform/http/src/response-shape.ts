type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
type Extra<Dto, Built> = Exclude<keyof Built, keyof Dto>;
type Missing<Dto, Built> = Exclude<RequiredKeys<Dto>, keyof Built>;
type Mismatched<Dto, Built> = { [K in keyof Dto & keyof Built]: [Built[K]] extends [Dto[K]] ? never : K }[keyof Dto & keyof Built];

/**
 * Compile-time agreement of a response class (the type and OpenAPI schema of an answer) and
 * what its mapper builds: `true` when `Built` has every required field of `Dto`, each of a
 * type the class allows, and no field the class lacks (it would reach the JSON answer
 * undocumented). Otherwise a type naming the fields, so assigning `true` fails to compile:
 *
 *   export function toProjectResponse(p: ProjectRecord) { return { ... }; }   // return type inferred
 *   export const PROJECT_SHAPES_AGREE: [ShapeAgrees<ProjectResponseDto, ReturnType<typeof toProjectResponse>>] = [true];
 *
 * The mapper's return type must be inferred (annotating it with the class would check nothing
 * a spread adds). Nested objects are checked for assignability; give a nested mapper its own check.
 */
export type ShapeAgrees<Dto, Built> =
  [Extra<Dto, Built>] extends [never]
    ? [Missing<Dto, Built>] extends [never]
      ? [Mismatched<Dto, Built>] extends [never]
        ? true
        : { mismatchedFields: Mismatched<Dto, Built> }
      : { missingFields: Missing<Dto, Built> }
    : { undocumentedFields: Extra<Dto, Built> };
