import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDate } from '../components/format';
import { ConfirmDialog, Empty, ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useAction } from '../components/use-crud';

export default function ProjectsPage() {
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/projects')) });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(
    () => unwrap(api.POST('/api/projects', { body: { name, ...(description ? { description: description as never } : {}) } })),
    (p) => `Project “${p.name}” created`,
    ['projects'],
  );
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const remove = useAction((id: string) => unwrap(api.DELETE('/api/projects/{id}', { params: { path: { id } } })), 'Project deleted', ['projects', 'links']);
  const errors = fieldErrors(create.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(undefined, { onSuccess: () => (setName(''), setDescription('')) });
  };
  return (
    <section className="page">
      <PageHeader title="Projects" />
      <form className="card form" onSubmit={submit} noValidate aria-label="New project">
        <h2>New project</h2>
        <ErrorBanner error={create.error} fields={['name', 'description']} />
        <div className="form-row">
          <Field label="Name" error={errors.name}>
            {(p) => <input {...p} name="projectName" value={name} onChange={(e) => setName(e.target.value)} required />}
          </Field>
          <Field label="Description" error={errors.description}>
            {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
        </div>
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={create.isPending}>
            Create project
          </button>
        </div>
      </form>
      <ErrorBanner error={projects.error ?? remove.error} />
      {projects.isPending ? (
        <Loading />
      ) : !projects.data?.length ? (
        <Empty title="No projects yet">
          <p>Projects group links by campaign or client; create one above, then pick it when you create links.</p>
        </Empty>
      ) : (
        <div className="card table-wrap">
          <table className="plain">
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {projects.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/links?project=${p.id}`}>{p.name}</Link>
                  </td>
                  <td>{p.description ?? '—'}</td>
                  <td>{fmtDate(p.created_at)}</td>
                  <td className="num">
                    <button type="button" className="button small danger" onClick={() => setDeleting({ id: p.id, name: p.name })}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={`Delete project “${deleting?.name}”?`}
        body={<p>Its links stay, without a project.</p>}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}
