import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDate } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable, RowAction } from '../components/resource';
import { ErrorBanner, Field, fieldErrors, PageHeader } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

export default function ProjectsPage() {
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/projects')) });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(
    () => unwrap(api.POST('/api/projects', { body: { name, ...(description ? { description: description as never } : {}) } })),
    (p) => `Project “${p.name}” created`,
    ['projects'],
  );
  const remove = useRemoval((id: string) => unwrap(api.DELETE('/api/projects/{id}', { params: { path: { id } } })), 'Project deleted', ['projects', 'links']);
  const errors = fieldErrors(create.error);
  return (
    <section className="page">
      <PageHeader title="Projects" />
      <FormCard
        title="New project"
        error={create.error}
        fields={['name', 'description']}
        submitLabel="Create project"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: () => (setName(''), setDescription('')) })}
      >
        <div className="form-row">
          <Field label="Name" error={errors.name}>
            {(p) => <input {...p} name="projectName" value={name} onChange={(e) => setName(e.target.value)} required />}
          </Field>
          <Field label="Description" error={errors.description}>
            {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
        </div>
      </FormCard>
      <ErrorBanner error={projects.error ?? remove.error} />
      <ResourceTable
        loading={projects.isPending}
        items={projects.data}
        empty={{ title: 'No projects yet', body: 'Projects group links by campaign or client; create one above, then pick it when you create links.' }}
        head={['Name', 'Description', 'Created', '']}
      >
        {(p) => (
          <tr key={p.id}>
            <td>
              <Link to={`/links?project=${p.id}`}>{p.name}</Link>
            </td>
            <td>{p.description ?? '—'}</td>
            <td>{fmtDate(p.created_at)}</td>
            <RowAction onClick={() => remove.ask({ id: p.id, name: p.name })} />
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={remove}
        title={(d) => `Delete project “${d.name}”?`}
        body="Its links stay, without a project."
      />
    </section>
  );
}
