import { fmtNumber } from '../components/format';
import { namedOptions, Select } from '../components/ui';

/** The list's filters, as the page's URL holds them ('' = not filtered). */
export interface FilterValues {
  search: string;
  projectId: string;
  template: string;
  tag: string;
  domain: string;
  active: string;
}

type Named = ReadonlyArray<{ id: string; name: string }>;

/** The search box and the filter menus above the links list. */
export function LinkFilters({
  values,
  setParam,
  projects,
  templates,
  tags,
  domains,
}: {
  values: FilterValues;
  setParam: (key: string, value: string) => void;
  projects: Named;
  templates: ReadonlyArray<{ id: string; name: string; slug: string }>;
  tags: ReadonlyArray<{ name: string; count: number }>;
  domains: ReadonlyArray<{ id: string; domain: string }>;
}) {
  return (
    <div className="toolbar" role="search">
      <label className="grow">
        <span className="visually-hidden">Search links</span>
        <input
          type="search"
          placeholder="Search title, code or destination"
          value={values.search}
          onChange={(e) => setParam('q', e.target.value)}
        />
      </label>
      <FilterMenu label="Project" all="All projects" value={values.projectId} onChange={(v) => setParam('project', v)} options={namedOptions(projects)} />
      <FilterMenu label="Template" all="All templates" value={values.template} onChange={(v) => setParam('template', v)} options={templates.map((t) => [t.slug, t.name])} />
      <FilterMenu label="Tag" all="All tags" value={values.tag} onChange={(v) => setParam('tag', v)} options={tags.map((t) => [t.name, `${t.name} (${fmtNumber(t.count)})`])} />
      {domains.length > 0 && (
        <FilterMenu label="Domain" all="All domains" value={values.domain} onChange={(v) => setParam('domain', v)} options={domains.map((d) => [d.domain, d.domain])} />
      )}
      <FilterMenu
        label="Status"
        all="Active and inactive"
        value={values.active}
        onChange={(v) => setParam('active', v)}
        options={[
          ['true', 'Active only'],
          ['false', 'Inactive only'],
        ]}
      />
    </div>
  );
}

/** One filter menu: '' is its "all" choice; options are [value, label] pairs. */
function FilterMenu({ label, all, value, onChange, options }: { label: string; all: string; value: string; onChange: (value: string) => void; options: ReadonlyArray<readonly [string, string]> }) {
  return (
    <label>
      <span className="visually-hidden">{label}</span>
      <Select aria-label={label} value={value} onChange={onChange} options={[['', all], ...options]} />
    </label>
  );
}
