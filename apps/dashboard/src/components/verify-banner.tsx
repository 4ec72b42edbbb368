import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { useToast } from './toasts';

/** After sign-up, until the address is confirmed: a notice with "send again" (decisions §20). */
export function VerifyBanner() {
  const toast = useToast();
  const me = useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/auth/me')) });
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/resend-verification')),
    onSuccess: () => toast('Verification email sent'),
    onError: (err) =>
      toast(err instanceof ApiError && err.body.retryAfter ? `An email was just sent: try again in ${err.body.retryAfter} s` : err.message, 'error'),
  });
  const user = me.data?.user;
  if (!user || user.emailVerified) return null;
  return (
    <div className="notice-banner" role="status" data-testid="verify-banner">
      <span>
        Confirm your email address: we sent a link to <strong>{user.email}</strong>.
      </span>
      <button type="button" className="button ghost" onClick={() => resend.mutate()} disabled={resend.isPending}>
        {resend.isPending ? 'Sending…' : 'Send again'}
      </button>
    </div>
  );
}
