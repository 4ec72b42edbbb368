import { TransformationType } from 'class-transformer';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { ConstraintMetadata } from 'class-validator/types/metadata/ConstraintMetadata';
import type { ValidationArguments } from 'class-validator';

/*
 * The rules of a DTO class, read once from class-validator's and class-transformer's metadata
 * storage and applied the way the global ValidationPipe applies them (class-transformer's
 * `plainToInstance`, then class-validator's `validate` with `whitelist` and
 * `forbidNonWhitelisted`), without their per-call metadata lookups, Promise and error objects.
 * The validators themselves are the decorators' own functions, called with the same arguments;
 * the messages come from the same metadata. Domain: values parsed from JSON. A class using
 * metadata this does not reproduce (groups, async validators, @Expose/@Exclude, discriminators)
 * is refused when compiled, so a rule can never be applied differently from the pipe.
 */

// Runtime helpers class-validator and class-transformer use themselves (not re-exported by their index).
const { ValidationUtils } = require('class-validator/cjs/validation/ValidationUtils') as typeof import('class-validator/types/validation/ValidationUtils');
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/** One failing property, shaped like class-validator's ValidationError (what the pipe flattens). */
export interface FieldError {
  property: string;
  constraints?: Record<string, string>;
  children?: FieldError[];
}

export type DtoVerdict<T> = { value: T; errors: null } | { value: null; errors: FieldError[] };

/** The errors this module builds: both lists always present. */
type Failing = Required<FieldError> & { children: Failing[] };

type Ctor = Function;
type Obj = Record<string, unknown>;

/** One validator of a property: its metadata, its constraint, and the arguments it is called with (refilled per call). */
interface CustomRule {
  meta: ValidationMetadata;
  constraint: ConstraintMetadata;
  args: ValidationArguments;
}

interface PropertyPlan {
  name: string;
  conditions: ValidationMetadata[];
  defined: CustomRule[];
  custom: CustomRule[];
  nested: ValidationMetadata[];
}

interface TypeRule {
  /** The class a nested value becomes (`@Type(() => X)`), or undefined when none is declared. */
  target: Ctor | undefined;
  transforms: Array<(params: { value: unknown; key: string; obj: unknown; type: TransformationType; options: object }) => unknown>;
}

interface ClassPlan {
  /** Metadata by property name, as class-validator groups it (a plain object: its whitelist test reads it). */
  grouped: Record<string, ValidationMetadata[]>;
  properties: PropertyPlan[];
  /** class-transformer's rules of the properties that have validation metadata, by name. */
  keys: Map<string, TypeRule>;
  shadows: Set<string>;
  hasRules: boolean;
}

const storage = getMetadataStorage();
const plans = new Map<unknown, ClassPlan>();
const NO_TYPE: TypeRule = { target: undefined, transforms: [] };
const TRANSFORM_OPTIONS = Object.freeze({ enableImplicitConversion: false });
const BUILT_INS = new Set<unknown>([String, Number, Boolean, Date, Buffer, Map, Set, Promise]);

function refuse(target: { name?: string }, why: string): never {
  throw new Error(`compileDto(${target.name ?? '?'}): ${why} is not reproduced; validate this class with the ValidationPipe`);
}

/** class-transformer's rules of one property of `target` (type, custom transforms), refusing what is not reproduced. */
function typeRule(target: Ctor, key: string): TypeRule {
  const type = defaultMetadataStorage.findTypeMetadata(target as never, key);
  let nested: Ctor | undefined;
  if (type) {
    if (type.options?.discriminator) refuse(target, `@Type discriminator on ${key}`);
    if (type.reflectedType === Map || type.reflectedType === Set) refuse(target, `a ${String(type.reflectedType.name)} property (${key})`);
    nested = type.typeFunction({ newObject: {}, object: {}, property: key }) as Ctor;
    if (BUILT_INS.has(nested)) refuse(target, `@Type(() => ${nested.name}) on ${key}`);
  }
  const transforms = defaultMetadataStorage.findTransformMetadatas(target as never, key, TransformationType.PLAIN_TO_CLASS);
  for (const t of transforms) if (t.options?.groups?.length || t.options?.since !== undefined || t.options?.until !== undefined) refuse(target, `@Transform groups or versions on ${key}`);
  return type || transforms.length ? { target: nested, transforms: transforms.map((t) => t.transformFn) } : NO_TYPE;
}

function customRules(target: Ctor, meta: ValidationMetadata): CustomRule[] {
  const constraints = storage.getTargetValidatorConstraints(meta.constraintCls);
  if (constraints.some((c) => c.async)) refuse(target, `an async validator on ${meta.propertyName}`);
  // The object validated is always of `target` (a stand-in or an array carries it as `constructor`).
  return constraints.map((constraint) => ({
    meta,
    constraint,
    args: { targetName: target.name, property: meta.propertyName, object: {}, value: undefined, constraints: meta.constraints },
  }));
}

function planOf(target: Ctor): ClassPlan {
  let plan = plans.get(target);
  if (plan) return plan;
  if (defaultMetadataStorage.getStrategy(target as never) !== 'none') refuse(target, 'an @Expose/@Exclude strategy');
  if (defaultMetadataStorage.getExposedMetadatas(target as never).length || defaultMetadataStorage.getExcludedMetadatas(target as never).length) {
    refuse(target, '@Expose/@Exclude');
  }
  const metas = storage.getTargetValidationMetadatas(target as never, undefined as never, false, false, undefined);
  const grouped = storage.groupByPropertyName(metas);
  const properties: PropertyPlan[] = [];
  const keys = new Map<string, TypeRule>();
  plan = { grouped, properties, keys, shadows: shadowsOf(target), hasRules: metas.length > 0 };
  // Registered before the properties: a class nested in itself finds its own plan.
  plans.set(target, plan);
  for (const name of Object.keys(grouped)) {
    const p: PropertyPlan = { name, conditions: [], defined: [], custom: [], nested: [] };
    for (const m of grouped[name]) {
      if (m.groups?.length || m.always !== undefined) refuse(target, `validation groups on ${name}`);
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) p.conditions.push(m);
      else if (m.type === ValidationTypes.IS_DEFINED) p.defined.push(...customRules(target, m));
      else if (m.type === ValidationTypes.CUSTOM_VALIDATION) p.custom.push(...customRules(target, m));
      else if (m.type === ValidationTypes.NESTED_VALIDATION) p.nested.push(m);
      else if (m.type !== ValidationTypes.WHITELIST) refuse(target, `${m.type} on ${name}`);
    }
    properties.push(p);
    keys.set(name, typeRule(target, name));
  }
  for (const rule of keys.values()) if (rule.target) planOf(rule.target);
  return plan;
}

// ───────────── class-transformer's plainToInstance, for JSON values ─────────────

const shadows = new Map<unknown, Set<string>>();

/**
 * The keys class-transformer leaves out of an object it builds: names of its prototype's getters
 * and of functions it reaches (`toString`, `hasOwnProperty` …), found once per class on a probe.
 */
function shadowsOf(target: Ctor | undefined): Set<string> {
  let names = shadows.get(target ?? Object);
  if (names) return names;
  const probe = (target ? new (target as new () => unknown)() : {}) as Obj;
  const proto = (probe.constructor as { prototype?: object } | undefined)?.prototype;
  names = new Set();
  for (let o: object | null = probe; o; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const d = proto ? Object.getOwnPropertyDescriptor(proto, name) : undefined;
      if ((d !== undefined && !d.set) || probe[name] instanceof Function) names.add(name);
    }
  }
  shadows.set(target ?? Object, names);
  return names;
}

function transform(value: unknown, target: Ctor | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => transform(v, target));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Obj;
  const built = (target ? new (target as new () => unknown)() : {}) as Obj;
  const plan = target ? planOf(target) : undefined;
  const skipped = plan ? plan.shadows : shadowsOf(undefined);
  for (const key of Object.keys(source)) {
    if (key === '__proto__' || key === 'constructor' || skipped.has(key)) continue;
    const rule = plan ? (plan.keys.get(key) ?? typeRule(target!, key)) : NO_TYPE;
    let out = transform(source[key], rule.target);
    for (const fn of rule.transforms) out = fn({ value: out, key, obj: source, type: TransformationType.PLAIN_TO_CLASS, options: TRANSFORM_OPTIONS });
    built[key] = out;
  }
  return built;
}

// ───────────── class-validator's validate (whitelist, forbidNonWhitelisted) ─────────────

const names = new Map<unknown, string | undefined>();

function args(object: Obj | Ctor, value: unknown, meta: ValidationMetadata): ValidationArguments {
  const ctor = (object as { constructor?: { name?: string } }).constructor;
  let targetName = names.get(ctor);
  if (targetName === undefined && !names.has(ctor)) names.set(ctor, (targetName = ctor ? ctor.name : undefined));
  return { targetName: targetName as string, property: meta.propertyName, object: object as object, value, constraints: meta.constraints };
}

function failure(object: Obj | Ctor, value: unknown, meta: ValidationMetadata, constraint?: ConstraintMetadata): [string, string] {
  const a = args(object, value, meta);
  const type = constraint?.name ? constraint.name : meta.type;
  let message: ValidationMetadata['message'] = meta.message || '';
  if (!meta.message && constraint && constraint.instance.defaultMessage instanceof Function) message = constraint.instance.defaultMessage(a);
  return [type, ValidationUtils.replaceMessageSpecialTokens(message, a)];
}

function errorOf(current: Failing | null, property: string): Failing {
  return current ?? { property, constraints: {}, children: [] };
}

function customChecks(object: Obj, value: unknown, rules: CustomRule[], property: string, error: Failing | null): Failing | null {
  for (let i = 0; i < rules.length; i++) {
    const { meta, constraint, args: a } = rules[i];
    // class-validator skips every constraint of a metadata whose `validateIf` says no.
    if (meta.validateIf && !meta.validateIf(object, value)) continue;
    a.object = object;
    a.value = value;
    let ok: unknown;
    if (!meta.each || !Array.isArray(value)) ok = constraint.instance.validate(value, a);
    else ok = value.map((v: unknown) => constraint.instance.validate(v, a)).every((x: unknown) => x);
    if (ok instanceof Promise) refuse(object.constructor as Ctor, `an async result of ${meta.propertyName}`);
    if (!ok) {
      error = errorOf(error, property);
      const [type, message] = failure(object, value, meta, constraint);
      error.constraints[type] = message;
    }
  }
  return error;
}

function nestedChecks(value: unknown, nested: ValidationMetadata[], property: string, error: Failing | null): Failing | null {
  if (value === undefined) return error;
  for (const meta of nested) {
    if (Array.isArray(value)) {
      const children: Failing[] = [];
      value.forEach((item: unknown, i: number) => validateProperty(value as unknown as Obj, item, String(i), null, nested, children));
      if (children.length) (error = errorOf(error, property)).children.push(...children);
    } else if (value instanceof Object) {
      const children: Failing[] = [];
      execute(value as Obj, children);
      if (children.length) (error = errorOf(error, property)).children.push(...children);
    } else {
      error = errorOf(error, property);
      const [type, message] = failure(meta.target as Ctor, value, meta);
      error.constraints[type] = message;
    }
  }
  return error;
}

/** class-validator's performValidations: conditions (all evaluated), then the rules; the property's error only when something failed. */
function validateProperty(object: Obj, value: unknown, property: string, p: PropertyPlan | null, nested: ValidationMetadata[], out: Failing[]): void {
  let canValidate: unknown = true;
  if (p) {
    for (const m of p.conditions) {
      const holds = (m.constraints[0] as (o: object, v: unknown) => unknown)(object, value);
      canValidate = canValidate && holds;
    }
  }
  if (!canValidate) return;
  let error: Failing | null = null;
  if (p) error = customChecks(object, value, p.defined, property, error);
  if (p) error = customChecks(object, value, p.custom, property, error);
  error = nestedChecks(value, nested, property, error);
  if (error) out.push(error);
}

function execute(object: Obj, out: Failing[]): void {
  const plan = planOf(object.constructor as Ctor);
  for (const key of Object.keys(object)) {
    const rules = plan.grouped[key];
    if (!rules || rules.length === 0) out.push({ property: key, constraints: { [ValidationTypes.WHITELIST]: `property ${key} should not exist` }, children: [] });
  }
  for (const p of plan.properties) validateProperty(object, object[p.name], p.name, p, p.nested, out);
}

// ───────────── the ValidationPipe's steps around them ─────────────

/** What the pipe deletes from a value before transforming it (`stripProtoKeys`), in place. */
function stripProtoKeys(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) stripProtoKeys(v);
    return;
  }
  const o = value as Obj;
  for (const key of Object.keys(o)) {
    if (key === '__proto__' || key === 'prototype' || key === 'constructor') Reflect.deleteProperty(o, key);
    else stripProtoKeys(o[key]);
  }
}

const isPrimitive = (v: unknown) => typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string';

/**
 * Compiles the rules of `cls` into a check with the verdict of the global ValidationPipe (transform
 * on, whitelist, unknown fields refused) on a value parsed from JSON: the DTO instance it would
 * return, or the errors it would flatten. `label` names a value that is no object (`body`).
 * Mutates the value as the pipe does (prototype keys deleted).
 */
export function compileDto<T>(cls: new () => T): (value: unknown, label?: string) => DtoVerdict<T> {
  const plan = planOf(cls as Ctor);
  return (input, label = 'body') => {
    const value = input === null || input === undefined ? {} : input;
    const standIn = isPrimitive(value);
    stripProtoKeys(value);
    const built = transform(value, cls as Ctor) as Obj;
    let entity = built;
    const ctorNotEqual = standIn || built.constructor !== cls;
    if (ctorNotEqual && !standIn) entity.constructor = cls;
    else if (ctorNotEqual) entity = { constructor: cls };
    const errors: Failing[] = [];
    execute(entity, errors);
    if (ctorNotEqual && !standIn) Reflect.deleteProperty(entity, 'constructor');
    if (errors.length) return { value: null, errors };
    if (ctorNotEqual && plan.hasRules) {
      return { value: null, errors: [{ property: label, constraints: { isObject: 'Validation failed (object is expected)' }, children: [] }] };
    }
    return { value: (standIn ? value : entity) as T, errors: null };
  };
}
