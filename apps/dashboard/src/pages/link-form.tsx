import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { ErrorBanner, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useToast } from '../components/toasts';
import type { BodyKey, FormContext } from './link-form-editors';
import { emptyForm, FIELDS, readForm, writeBody, type FormState } from './link-form-fields';
import { LinkFormPreview } from './link-form-preview';
import { LinkFormSections } from './link-form-sections';

export default function LinkFormPage() {
  const { id } = useParams();
  const editing = Boolean(id);
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const link = useQuery({
    queryKey: ['link', id],
    enabled: editing,
    queryFn: () => unwrap(api.GET('/api/links/{id}', { params: { path: { id: id as string } } })),
  });
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.GET('/api/templates')) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/projects')) });
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => unwrap(api.GET('/api/domains')) });
  const [f, setF] = useState<FormState>(emptyForm);
  useEffect(() => {
    if (link.data) setF(readForm(link.data));
  }, [link.data]);
  useEffect(() => {
    if (!editing && !f.templateId && templates.data?.length) {
      const preferred = templates.data.find((t) => t.slug === 'default') ?? templates.data[0];
      setF((s) => ({ ...s, templateId: preferred.id }));
    }
  }, [editing, f.templateId, templates.data]);
  const setField = useCallback((key: BodyKey, value: unknown) => setF((s) => ({ ...s, [key]: value })), []);

  const save = useMutation({
    mutationFn: async () => {
      if (editing) {
        const body = writeBody(f, { editing: true, original: link.data });
        return (await unwrap(api.PUT('/api/links/{id}', { params: { path: { id: id as string } }, body }))).id;
      }
      const { templateId, ...body } = writeBody(f, { editing: false });
      // Without a template (none loaded) the API answers with the field's message.
      return (await unwrap(api.POST('/api/links', { body: { ...body, templateId: templateId as string } }))).id;
    },
    onSuccess: async (savedId) => {
      toast(editing ? 'Link saved' : 'Link created');
      await queryClient.invalidateQueries({ queryKey: ['links'] });
      await queryClient.invalidateQueries({ queryKey: ['link', savedId] });
      navigate(`/links/${savedId}`);
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  if (editing && link.isPending) return <Loading />;
  if (editing && link.error) return <ErrorBanner error={link.error} />;

  const verified = (domains.data ?? []).filter((d) => d.status === 'verified');
  const ctx: FormContext = {
    editing,
    link: link.data,
    templates: templates.data ?? [],
    projects: projects.data ?? [],
    domains: verified,
    err: (name) => errors[name] ?? Object.entries(errors).find(([k]) => k.startsWith(`${name}.`))?.[1],
    exact: (path) => errors[path],
  };
  // Every error the form shows next to a control: the banner lists only the others.
  const shown = Object.keys(errors).filter((k) => k.split(/[.[]/)[0] in FIELDS);

  return (
    <section className="page">
      <PageHeader title={editing ? 'Edit link' : 'New link'}>
        <Link className="button ghost" to={editing ? `/links/${id}` : '/links'}>
          Cancel
        </Link>
      </PageHeader>
      <form className="layout-form" onSubmit={submit} noValidate>
        <div className="form">
          <ErrorBanner error={save.error} fields={shown} />
          <LinkFormSections state={f} setField={setField} ctx={ctx} />
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : editing ? 'Save link' : 'Create link'}
            </button>
          </div>
        </div>
        <LinkFormPreview f={f} link={link.data} defaultDomain={verified.find((d) => d.isDefault)?.domain} />
      </form>
    </section>
  );
}
