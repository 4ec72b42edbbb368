import { useState } from 'react';
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

/** What a removal asks about: the id it acts on and the name its question shows. */
export interface RemovalTarget {
  id: string;
  name: string;
}

/**
 * A removal that asks first: `ask(target)` opens the page's `ConfirmRemoval`, which runs the
 * mutation with the target's id and closes when it settles (its error is the mutation's).
 */
export function useRemoval(fn: (id: string) => Promise<unknown>, done: string, invalidate: string[]) {
  const [target, setTarget] = useState<RemovalTarget | null>(null);
  const action = useAction(fn, done, invalidate);
  return { ...action, target, ask: setTarget, close: () => setTarget(null) };
}

export type Removal = ReturnType<typeof useRemoval>;
