import { Fragment, useEffect, useState, type ReactNode } from 'react';
import type { BodyKey, FormContext } from './link-form-editors';
import { editorOf, LINK_FORM_SECTIONS, type FormState, type Section } from './link-form-fields';

/** The form's fieldsets: each field's control where LINK_FORM_SECTIONS puts it. */
export function LinkFormSections({ state, setField, ctx }: { state: FormState; setField: (key: BodyKey, value: unknown) => void; ctx: FormContext }) {
  const part = (key: BodyKey, which: 'render' | 'below') => {
    const render = editorOf(key)[which];
    return <Fragment key={key}>{render?.({ value: state[key], set: (value) => setField(key, value), ctx })}</Fragment>;
  };
  const sections: readonly Section[] = LINK_FORM_SECTIONS;
  return sections.map((section, i) => {
    const rows = section.rows.map((row, j) => (
      <Fragment key={j}>
        {row.length > 1 ? <div className="form-row">{row.map((key) => part(key, 'render'))}</div> : part(row[0], 'render')}
        {row.map((key) => part(key, 'below'))}
      </Fragment>
    ));
    if (section.collapsible) {
      const keys = section.rows.flat();
      const filled = keys.some((key) => JSON.stringify(state[key]) !== JSON.stringify(editorOf(key).empty) || !!ctx.err(key));
      return (
        <Collapsible key={i} legend={section.legend ?? ''} filled={filled}>
          {rows}
        </Collapsible>
      );
    }
    return section.legend ? (
      <fieldset key={i}>
        <legend>{section.legend}</legend>
        {rows}
      </fieldset>
    ) : (
      <Fragment key={i}>{rows}</Fragment>
    );
  });
}

/** A folded section: it opens when it holds values (an edited link once loaded, an error) or when the user opens it; it never folds by itself. */
function Collapsible({ legend, filled, children }: { legend: string; filled: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(filled);
  useEffect(() => {
    if (filled) setOpen(true);
  }, [filled]);
  return (
    <details className="section-toggle" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{legend}</summary>
      <fieldset>
        <legend className="visually-hidden">{legend}</legend>
        {children}
      </fieldset>
    </details>
  );
}
