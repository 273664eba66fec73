/**
 * Styles of `<silo-chat>`'s composer when it is narrow (a phone, a narrow column): its own container
 * query, after the chat's styles (components/chat/silo-chat.styles.ts).
 */
import { css } from 'lit';

export const narrowComposerStyles = css`
  .attach-icon {
    display: none;
  }
  /* A narrow composer (a phone, a narrow column): the text box keeps the width. One line holds Attach
     (a "+", its accessible name stays the full label), the text box and Send; the line under it the
     pickers, and Edit last or Stop at its end. The input row's buttons join the composer's grid. */
  .composer-box {
    container: composer / inline-size;
    flex: none;
  }
  @container composer (max-width: 560px) {
    .composer {
      display: grid;
      grid-template-columns: auto minmax(0, 1fr) auto;
      grid-template-areas:
        'status status status'
        'note note note'
        'hint hint hint'
        'files files files'
        'attach input send'
        'pickers pickers tools';
      column-gap: 8px;
      align-items: end;
    }
    .input-row {
      display: contents;
    }
    .status-row {
      grid-area: status;
    }
    .note {
      grid-area: note;
    }
    .command-hint {
      grid-area: hint;
    }
    .attachments {
      grid-area: files;
    }
    .input-row > [part~='attach'] {
      grid-area: attach;
    }
    .input-row > textarea {
      grid-area: input;
    }
    .input-row > [part~='send'] {
      grid-area: send;
    }
    .pickers {
      grid-area: pickers;
      margin: 6px 0 0;
      align-self: center;
    }
    .input-row > :not([part~='attach'], textarea, [part~='send']) {
      grid-area: tools;
      margin-top: 6px;
    }
    .input-row button {
      padding: 8px 12px;
    }
    .input-row > [part~='edit-last'],
    .input-row > [part~='stop'] {
      padding: 3px 10px;
      font-size: 0.9em;
    }
    .attach-text {
      display: none;
    }
    .attach-icon {
      display: inline;
      font-size: 1.2em;
      line-height: 1;
    }
    /* An empty composer is sized by its placeholder (field-sizing: content), which wraps to several
       lines here: it keeps the height of one line of text instead (the placeholder's first line). */
    textarea:placeholder-shown {
      field-sizing: fixed;
      height: calc(1lh + 18px);
      white-space: nowrap;
      text-overflow: ellipsis;
    }
    textarea::placeholder {
      white-space: nowrap;
      text-overflow: ellipsis;
    }
  }
`;
