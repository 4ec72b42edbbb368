import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from './toasts';

/** A mutation that toasts `done` and refreshes the given queries when it succeeds. */
export function useAction<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>, done: string | ((r: TResult) => string), invalidate: string[]) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (result) => {
      toast(typeof done === 'string' ? done : done(result));
      await Promise.all(invalidate.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
    },
  });
}
