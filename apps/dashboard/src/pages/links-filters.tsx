import { fmtNumber } from '../components/format';

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
      <label>
        <span className="visually-hidden">Project</span>
        <select aria-label="Project" value={values.projectId} onChange={(e) => setParam('project', e.target.value)}>
          <option value="">All projects</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">Template</span>
        <select aria-label="Template" value={values.template} onChange={(e) => setParam('template', e.target.value)}>
          <option value="">All templates</option>
          {templates.map((t) => (
            <option key={t.id} value={t.slug}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">Tag</span>
        <select aria-label="Tag" value={values.tag} onChange={(e) => setParam('tag', e.target.value)}>
          <option value="">All tags</option>
          {tags.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name} ({fmtNumber(t.count)})
            </option>
          ))}
        </select>
      </label>
      {domains.length > 0 && (
        <label>
          <span className="visually-hidden">Domain</span>
          <select aria-label="Domain" value={values.domain} onChange={(e) => setParam('domain', e.target.value)}>
            <option value="">All domains</option>
            {domains.map((d) => (
              <option key={d.id} value={d.domain}>
                {d.domain}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        <span className="visually-hidden">Status</span>
        <select aria-label="Status" value={values.active} onChange={(e) => setParam('active', e.target.value)}>
          <option value="">Active and inactive</option>
          <option value="true">Active only</option>
          <option value="false">Inactive only</option>
        </select>
      </label>
    </div>
  );
}
