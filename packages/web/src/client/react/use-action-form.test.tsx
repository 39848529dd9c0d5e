import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormResultContext, type FormResult } from '../../render/form-result.js';
import type { Router } from '../router/create-router.js';
import { RouterContext } from './router-context.js';
import { useActionForm } from './use-action-form.js';

/** Shows what the hook hands the form, as text. */
function Probe({ actionId }: { actionId: string }) {
  const form = useActionForm(actionId);
  return (
    <output>
      {JSON.stringify({
        enhanced: form.onSubmit !== undefined,
        fieldErrors: form.fieldErrors,
        values: form.values,
      })}
    </output>
  );
}

const posted: FormResult = {
  action: 'a1',
  fieldErrors: { title: ['Too long'], _form: ['Check the form'] },
  values: { title: 'x'.repeat(300) },
};

function shown(actionId: string, router: Router | null): unknown {
  const html = renderToString(
    <RouterContext value={router}>
      <FormResultContext value={posted}>
        <Probe actionId={actionId} />
      </FormResultContext>
    </RouterContext>,
  );
  const text = html.replace(/^<output>|<\/output>$/g, '').replaceAll('&quot;', '"');
  return JSON.parse(text);
}

describe('useActionForm', () => {
  it("hands a page rendered again after a plain post its action's errors and typed values", () => {
    expect(shown('a1', null)).toEqual({
      enhanced: false,
      fieldErrors: posted.fieldErrors,
      values: posted.values,
    });
  });

  it("shows nothing of another action's failed post", () => {
    expect(shown('a2', null)).toEqual({ enhanced: false, fieldErrors: {}, values: {} });
  });

  it('submits with fetch when the router runs, still showing the plain post until then', () => {
    expect(shown('a1', {} as Router)).toEqual({
      enhanced: true,
      fieldErrors: posted.fieldErrors,
      values: posted.values,
    });
  });
});
