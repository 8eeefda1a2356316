import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import RichTextEditor from './RichTextEditor';

function Editor() {
  const [value, setValue] = useState('<p>Observing time</p>');
  return <RichTextEditor label="Description" value={value} onChange={setValue} />;
}

// jsdom lays nothing out: ProseMirror scrolls the selection into view by a Range's
// rectangles, which jsdom's Range does not have. Empty ones, as for an element.
beforeAll(() => {
  Range.prototype.getClientRects = () => document.createElement('span').getClientRects();
  Range.prototype.getBoundingClientRect = () => new DOMRect();
});
afterAll(() => {
  Reflect.deleteProperty(Range.prototype, 'getClientRects');
  Reflect.deleteProperty(Range.prototype, 'getBoundingClientRect');
});

describe('RichTextEditor', () => {
  it('keeps the focus in the text while a formatting button is used, so the next keys land there', async () => {
    const user = userEvent.setup();
    render(<Editor />);
    const text = screen.getByRole('textbox', { name: 'Description' });
    text.focus();
    expect(text).toHaveFocus();

    // Pressing the button does not take the focus from the text, even for a moment: the
    // editor would take it back only a frame later, and keys typed meanwhile were lost.
    const bold = screen.getByRole('button', { name: 'Bold' });
    await user.pointer({ keys: '[MouseLeft>]', target: bold });
    expect(text).toHaveFocus();
    await user.pointer({ keys: '[/MouseLeft]', target: bold });
    expect(text).toHaveFocus();
    expect(bold).toHaveAttribute('aria-pressed', 'true');
  });
});
