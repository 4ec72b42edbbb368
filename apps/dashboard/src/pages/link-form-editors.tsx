import type { InputHTMLAttributes, ReactNode } from 'react';
import type { components } from '../api/schema';
import { Field, FieldError, namedOptions, SelectField } from '../components/ui';

/**
 * The building blocks of the link form's editors: the API's body types (from the generated
 * client), what an editor is, and the controls most fields use.
 */
export type CreateBody = components['schemas']['CreateLinkDto'];
export type UpdateBody = components['schemas']['UpdateLinkDto'];
export type LinkResponse = components['schemas']['LinkResponseDto'];

/** Every field a create or an update of a link takes (from the generated client). */
export type BodyKey = keyof CreateBody | keyof UpdateBody;
/** What the API takes for a field (`null` clears it on an update). */
export type BodyValue<K extends BodyKey> = K extends keyof CreateBody ? CreateBody[K] : K extends keyof UpdateBody ? UpdateBody[K] : never;
/** A request body as the form builds it: any field of either. */
export type LinkBody = { [K in BodyKey]?: BodyValue<K> };

/** What every editor may read besides its own value. */
export interface FormContext {
  editing: boolean;
  /** The link being edited. */
  link?: LinkResponse;
  templates: ReadonlyArray<{ id: string; name: string }>;
  projects: ReadonlyArray<{ id: string; name: string }>;
  /** The organization's verified domains. */
  domains: ReadonlyArray<{ id: string; domain: string; isDefault: boolean }>;
  /** The API's message for a field (or the first one under it). */
  err: (path: string) => string | undefined;
  /** The API's message for exactly this path. */
  exact: (path: string) => string | undefined;
}

export interface EditorProps<S> {
  value: S;
  set: (value: S) => void;
  ctx: FormContext;
}

/**
 * How the form edits one API field: its value in the form when empty and for a saved link, its
 * value in the request (undefined leaves it out), and its control; `below` is shown under the
 * row that holds it.
 */
export interface FieldEditor<S, K extends BodyKey> {
  empty: S;
  read: (link: LinkResponse) => S;
  write: (value: S, ctx: { editing: boolean; original?: LinkResponse }) => BodyValue<K> | undefined;
  render: (props: EditorProps<S>) => ReactNode;
  below?: (props: EditorProps<S>) => ReactNode;
}

/** An unset field: left out on create, `null` on edit (so clearing a field clears it). */
export const blank = (editing: boolean): null | undefined => (editing ? null : undefined);
export const trimmedOr = (v: string, editing: boolean) => v.trim() || blank(editing);

export type InputProps = InputHTMLAttributes<HTMLInputElement>;

/** A one-line (or `multiline`) text control, labelled, with the API's message for it under it. */
export function TextControl({
  name,
  label,
  value,
  set,
  error,
  props,
  hint,
  multiline,
}: {
  name: string;
  label: string;
  value: string;
  set: (value: string) => void;
  error?: string;
  props?: InputProps;
  hint?: ReactNode;
  multiline?: boolean;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(p) =>
        multiline ? (
          <textarea {...p} value={value} onChange={(e) => set(e.target.value)} />
        ) : (
          <input {...p} {...props} name={name} value={value} onChange={(e) => set(e.target.value)} />
        )
      }
    </Field>
  );
}

/** A checkbox for a true/false field, with the API's message under it. */
export function CheckControl({ name, label, value, set, ctx }: EditorProps<boolean> & { name: BodyKey; label: string }) {
  return (
    <>
      <label className="checkbox">
        <input type="checkbox" checked={value} onChange={(e) => set(e.target.checked)} /> {label}
      </label>
      <FieldError message={ctx.err(name)} />
    </>
  );
}

/** The control of a text field: its label, input attributes and hint. */
export const textControl =
  (key: BodyKey, label: string, props?: InputProps, hint?: ReactNode, multiline?: boolean) =>
  ({ value, set, ctx }: EditorProps<string>) => (
    <TextControl name={key} label={label} value={value} set={set} error={ctx.err(key)} props={props} hint={hint} multiline={multiline} />
  );

/** Fields whose read value is a string or null and that take a string or null. */
type TextKey = {
  [K in BodyKey & keyof LinkResponse]: LinkResponse[K] extends string | null ? (null extends BodyValue<K> ? (string extends BodyValue<K> ? K : never) : never) : never;
}[BodyKey & keyof LinkResponse];

/** A nullable text field: empty clears it. */
export function text<K extends TextKey>(key: K, label: string, props?: InputProps, hint?: ReactNode, multiline?: boolean): FieldEditor<string, K> {
  return {
    empty: '',
    read: (l) => (l[key] as string | null) ?? '',
    write: (v, { editing }) => trimmedOr(v, editing) as BodyValue<K> | undefined,
    render: textControl(key, label, props, hint, multiline),
  };
}

export const url = <K extends TextKey>(key: K, label: string, props: InputProps = {}, hint?: ReactNode) => text(key, label, { type: 'url', ...props }, hint);

/** A true/false field: sent when editing (so unticking clears it) or when ticked. */
export function check<K extends 'cloak' | 'publicStats'>(key: K, label: string): FieldEditor<boolean, K> {
  return {
    empty: false,
    read: (l) => l[key],
    write: (v, { editing }) => (editing || v ? v : undefined) as BodyValue<K> | undefined,
    render: (p) => <CheckControl {...p} name={key} label={label} />,
  };
}

/** A <select> of the organization's templates or projects. */
export function Choice({ label, error, value, set, options, none }: { label: string; error?: string; value: string; set: (v: string) => void; options: FormContext['templates']; none?: string }) {
  return (
    <SelectField label={label} error={error} value={value} onChange={set} options={none === undefined ? namedOptions(options) : [['', none], ...namedOptions(options)]} />
  );
}
