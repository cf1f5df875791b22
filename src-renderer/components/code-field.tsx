import { useId, useState, type KeyboardEvent } from 'react';
import {
  CODE_SEPARATORS,
  CODE_WORDS_PER_CODE,
  completeWord,
  normalizeCode,
} from '../../src-shared/codes';

interface CodeFieldProps {
  value: string;
  onChange(value: string): void;
  /** The id of the hint under the field. */
  describedBy: string;
}

/** The text with its last word replaced by `word`, tidied, and a hyphen to go on if words are missing. */
function completed(text: string, word: string): string {
  const lastWord = text.split(CODE_SEPARATORS).pop() ?? '';
  const code = normalizeCode(`${text.slice(0, text.length - lastWord.length)}${word}`);
  return code.split('-').length < CODE_WORDS_PER_CODE ? `${code}-` : code;
}

/**
 * The receive code field: any case, any spacing, and the word being typed completes from the
 * word list (an ARIA combobox: arrows choose, Tab or Enter completes, Escape closes).
 */
export function CodeField({ value, onChange, describedBy }: CodeFieldProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputId = useId();
  const listId = useId();

  const lastWord = normalizeCode(value.split(CODE_SEPARATORS).pop() ?? '');
  const suggestions = open ? completeWord(value) : [];
  // A finished word that completes only to itself needs no list.
  const shown = suggestions.length === 1 && suggestions[0] === lastWord ? [] : suggestions;
  const expanded = shown.length > 0;
  const optionId = (index: number): string => `${listId}-${index}`;

  function choose(word: string): void {
    onChange(completed(value, word));
    setActive(-1);
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (!expanded) {
      if (event.key === 'ArrowDown' && lastWord !== '') {
        event.preventDefault();
        setOpen(true);
      }
      return;
    }
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setActive((active + 1) % shown.length);
        return;
      case 'ArrowUp':
        event.preventDefault();
        setActive(active <= 0 ? shown.length - 1 : active - 1);
        return;
      case 'Enter':
        if (active < 0) return;
        event.preventDefault();
        choose(shown[active]);
        return;
      case 'Tab':
        // Only an open list catches Tab, and completing closes it, so the next Tab moves on.
        if (event.shiftKey) return;
        event.preventDefault();
        choose(shown[Math.max(active, 0)]);
        setOpen(false);
        return;
      case 'Escape':
        event.preventDefault();
        setOpen(false);
        setActive(-1);
        return;
    }
  }

  return (
    <div className="code-field">
      <label htmlFor={inputId}>Code</label>
      <input
        id={inputId}
        className="code-input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        enterKeyHint="go"
        placeholder="three-words-here"
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={keyDown}
        onBlur={() => setOpen(false)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Word suggestions"
        className="suggestions"
        hidden={!expanded}
      >
        {shown.map((word, index) => (
          <li
            key={word}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'suggestion suggestion--active' : 'suggestion'}
            // mousedown, not click: a click would blur the field first and close the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(word);
            }}
          >
            {word}
          </li>
        ))}
      </ul>
    </div>
  );
}
