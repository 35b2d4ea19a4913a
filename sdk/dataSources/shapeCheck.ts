/**
 * Compile-time guard that a hand-written result type describes exactly what the data source returns.
 *
 * The result interfaces (`GetZoneResult`, ...) are written by hand so that every property carries
 * JSDoc in the user's IDE. The value itself comes from the catalog's zod wire schema
 * through `toSdk`, whose type is `Camelize<z.output<schema>>`. `SameShape` compares the two deeply:
 * the same known keys at every level, the same optionality and nullability at every key, and the
 * same leaf types. A field added to or removed from a schema, or renamed, fails the type check of the
 * data source's file with a message naming the path (`"targeting.countries.lists: missing from the
 * written type"`).
 *
 * Type-level only: nothing here exists at run time.
 */
import type { z } from "zod";
import type { Camelize } from "../../provider/wire/casing";

/** True when `T` is `any` (the casing type yields `any` where a schema is recursive). */
type IsAny<T> = 0 extends 1 & T ? true : false;

/** Keys that are declared names, not index signatures. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };

/**
 * Removes, at every level, the `[extra: string]: unknown` signature of loose objects. The tolerant
 * reader keeps unknown fields at run time, but they have no documented type, so the
 * written types leave them out. Records whose values are typed (`qps`, `metadata`, ...) keep their
 * index signature: their keys are data.
 */
export type StripLoose<T> =
  IsAny<T> extends true
    ? T
    : T extends readonly (infer E)[]
      ? StripLoose<E>[]
      : T extends object
        ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: StripLoose<T[K]> }
        : T;

/** What a data source built on `schema` returns: the camelCase twin of its output, loose parts removed. */
export type SdkShape<S extends z.ZodType> = StripLoose<Camelize<z.output<S>>>;

type Depth = readonly unknown[];
type MaxDepth = 10;

/** `true`, or a union of strings naming each path where `A` and `B` differ. */
type Compare<A, B, Path extends string, D extends Depth> = D["length"] extends MaxDepth
  ? true
  : IsAny<A> extends true
    ? true
    : IsAny<B> extends true
      ? true
      : ([null] extends [A] ? true : false) extends ([null] extends [B] ? true : false)
        ? ([undefined] extends [A] ? true : false) extends ([undefined] extends [B] ? true : false)
          ? Inside<NonNullable<A>, NonNullable<B>, Path, D>
          : `${Path}: optional on one side only`
        : `${Path}: nullable on one side only`;

/** Compares two non-null types: arrays by element, objects key by key, anything else by assignability. */
type Inside<A, B, Path extends string, D extends Depth> = [A] extends [readonly (infer EA)[]]
  ? [B] extends [readonly (infer EB)[]]
    ? Compare<EA, EB, `${Path}[]`, [...D, 0]>
    : `${Path}: an array in the written type only`
  : [B] extends [readonly unknown[]]
    ? `${Path}: an array in the schema only`
    : [A] extends [object]
      ? [B] extends [object]
        ? ObjectDiff<A, B, Path, D>
        : `${Path}: an object in the written type only`
      : [B] extends [object]
        ? `${Path}: an object in the schema only`
        : [A] extends [B]
          ? [B] extends [A]
            ? true
            : `${Path}: the written type is narrower than the schema's`
          : `${Path}: the written type and the schema's differ`;

type Join<P extends string, K extends string> = P extends "(result)" ? K : `${P}.${K}`;

/** Differences between two object types: key sets first, then each common key, then index values. */
type ObjectDiff<A, B, Path extends string, D extends Depth> =
  | { [K in Exclude<KnownKeys<B>, KnownKeys<A>> & string]: `${Join<Path, K>}: missing from the written type` }[Exclude<
      KnownKeys<B>,
      KnownKeys<A>
    > &
      string]
  | { [K in Exclude<KnownKeys<A>, KnownKeys<B>> & string]: `${Join<Path, K>}: not in the schema` }[Exclude<KnownKeys<A>, KnownKeys<B>> &
      string]
  | {
      [K in KnownKeys<A> & KnownKeys<B> & string]: Compare<
        K extends keyof A ? A[K] : never,
        K extends keyof B ? B[K] : never,
        Join<Path, K>,
        [...D, 0]
      >;
    }[KnownKeys<A> & KnownKeys<B> & string]
  | (string extends keyof A
      ? string extends keyof B
        ? Compare<A[string & keyof A], B[string & keyof B], `${Path}[key]`, [...D, 0]>
        : true
      : true);

/**
 * `true` when the written type `Written` and the schema's SDK shape `Schema` agree deeply; otherwise
 * the paths where they differ, as string literal types.
 */
export type SameShape<Written, Schema> = [Exclude<Compare<Written, Schema, "(result)", []>, true>] extends [never]
  ? true
  : Exclude<Compare<Written, Schema, "(result)", []>, true>;

/**
 * Fails to compile unless its argument is `true`. Use as
 * `type _Check = AssertTrue<SameShape<GetZoneResult, SdkShape<typeof Zone>>>;` — on a mismatch the
 * compiler prints the differing paths.
 */
export type AssertTrue<T extends true> = T;
