/**
 * The create/edit form: plain HTML that posts a server action (works without JavaScript) and
 * shows the validation messages of a failed submission.
 */
import { useActionForm, useActionId } from '@strata/web';
import type { Category } from '@strata/proto';

/** Field values the form starts with. */
export interface ItemFormValues {
  readonly title: string;
  readonly price: string;
  readonly categoryId: string;
  readonly description: string;
}

function Errors({ messages }: { messages: readonly string[] | undefined }) {
  return messages?.length ? (
    <>
      {messages.map((message) => (
        <span key={message} className="field-error">
          {message}
        </span>
      ))}
    </>
  ) : null;
}

/** The form; `hidden` adds fields such as the id and version. */
export function ItemForm(props: {
  /** The name of the page's action the form posts. */
  action: string;
  categories: readonly Category[];
  initial: ItemFormValues;
  submitLabel: string;
  hidden?: Readonly<Record<string, string>>;
}) {
  const actionId = useActionId(props.action);
  const form = useActionForm(actionId);
  const value = (name: keyof ItemFormValues) => form.values[name] ?? props.initial[name];
  const errors = form.fieldErrors;
  return (
    <form method="post" className="item-form" onSubmit={form.onSubmit} aria-busy={form.pending}>
      <input type="hidden" name="$action" value={actionId} />
      {Object.entries(props.hidden ?? {}).map(([name, hiddenValue]) => (
        <input key={name} type="hidden" name={name} value={hiddenValue} />
      ))}
      <Errors messages={errors['_form']} />
      <label>
        Title <input name="title" defaultValue={value('title')} required maxLength={200} />
        <Errors messages={errors['title']} />
      </label>
      <label>
        Price ($) <input name="price" defaultValue={value('price')} inputMode="decimal" required />
        <Errors messages={errors['price'] ?? errors['price_cents']} />
      </label>
      <label>
        Category{' '}
        <select name="categoryId" defaultValue={value('categoryId')}>
          {props.categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
        <Errors messages={errors['categoryId'] ?? errors['category_id']} />
      </label>
      <label>
        Description{' '}
        <textarea
          name="description"
          defaultValue={value('description')}
          rows={4}
          maxLength={5000}
        />
        <Errors messages={errors['description']} />
      </label>
      <button type="submit" disabled={form.pending}>
        {props.submitLabel}
      </button>
      {form.outcome?.ok ? <span className="saved">Saved.</span> : null}
    </form>
  );
}

/** The item page's delete button: posts its `deleteItem` action (plain HTML). */
export function DeleteForm({ id, version }: { id: number; version: number }) {
  return (
    <form method="post" className="delete-form">
      <input type="hidden" name="$action" value={useActionId('deleteItem')} />
      <input type="hidden" name="id" value={String(id)} />
      <input type="hidden" name="version" value={String(version)} />
      <button type="submit">Delete</button>
    </form>
  );
}
