import { callMessages } from '@merit/domain';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import ImageIcon from '@mui/icons-material/Image';
import LinkIcon from '@mui/icons-material/Link';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormHelperText,
  ToggleButton,
  Tooltip,
} from '@mui/material';
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId, useRef, useState, type ReactNode } from 'react';
import { TextInput } from '../../components/form/TextInput';
import { richTextStyles } from './RichTextView';

/** Spec section 9: an image in the editor may be at most 524288 bytes. */
export const MAX_IMAGE_BYTES = 524_288;
/** What the server keeps (its sanitiser drops other image types). */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface RichTextEditorProps {
  /** Names the editor for screen readers. */
  label: string;
  /** HTML. */
  value: string;
  /** HTML, or '' when the editor is empty. */
  onChange: (html: string) => void;
  /** A problem to show under the editor, e.g. the server's. */
  error?: string;
}

/**
 * The rich-text editor of call descriptions (TipTap). It is its own chunk, loaded only
 * where someone edits rich text: ProseMirror is too large for every page.
 */
export default function RichTextEditor({ label, value, onChange, error }: RichTextEditorProps) {
  const id = useId();
  const [imageError, setImageError] = useState<string | null>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        // The server keeps h1-h4; the page title is the h1, so descriptions start at h2.
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      // Images are stored inside the text as data URLs (ARCHITECTURE.md "Rich text").
      Image.configure({ allowBase64: true }),
    ],
    content: value,
    editorProps: {
      attributes: {
        'aria-labelledby': `${id}-label`,
        'aria-describedby': `${id}-help`,
        'aria-multiline': 'true',
        role: 'textbox',
      },
    },
    onUpdate: ({ editor: current }) => {
      setImageError(null);
      onChange(current.isEmpty ? '' : current.getHTML());
    },
  });

  const problem = imageError ?? error;
  return (
    <Box>
      <Box
        component="span"
        id={`${id}-label`}
        sx={{ display: 'block', mb: 0.5, color: 'text.secondary', typography: 'body2' }}
      >
        {label}
      </Box>
      <Box
        sx={{
          border: 1,
          borderColor: problem ? 'error.main' : 'divider',
          borderRadius: 1,
          '&:focus-within': { borderColor: 'primary.main', boxShadow: 1 },
        }}
      >
        <Toolbar editor={editor} onImageError={setImageError} />
        <Divider />
        <Box
          sx={{
            px: 2,
            py: 1,
            minHeight: 200,
            '& .ProseMirror': { outline: 'none', minHeight: 180 },
            ...richTextStyles,
          }}
        >
          <EditorContent editor={editor} />
        </Box>
      </Box>
      <FormHelperText
        id={`${id}-help`}
        error={Boolean(problem)}
        role={problem ? 'alert' : undefined}
      >
        {problem ?? 'Images: PNG, JPEG, GIF or WebP, at most 500 KB each.'}
      </FormHelperText>
    </Box>
  );
}

function Toolbar({
  editor,
  onImageError,
}: {
  editor: Editor;
  onImageError: (message: string | null) => void;
}) {
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      link: current.isActive('link'),
    }),
  });
  const fileInput = useRef<HTMLInputElement>(null);
  const [linkOpen, setLinkOpen] = useState(false);

  const insertImage = (file: File) => {
    if (!IMAGE_TYPES.includes(file.type)) {
      onImageError('Choose a PNG, JPEG, GIF or WebP image.');
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      onImageError(callMessages.imageTooLarge);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result !== 'string') return;
      onImageError(null);
      editor.chain().focus().setImage({ src: reader.result, alt: file.name }).run();
    };
    reader.onerror = () => onImageError('The image could not be read. Try another file.');
    reader.readAsDataURL(file);
  };

  return (
    <Box
      role="toolbar"
      aria-label="Formatting"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, p: 0.5 }}
    >
      <ToolButton
        label="Bold"
        selected={state.bold}
        onClick={() => editor.chain().focus().toggleBold().run()}
      >
        <FormatBoldIcon fontSize="small" />
      </ToolButton>
      <ToolButton
        label="Italic"
        selected={state.italic}
        onClick={() => editor.chain().focus().toggleItalic().run()}
      >
        <FormatItalicIcon fontSize="small" />
      </ToolButton>
      <ToolButton
        label="Heading"
        selected={state.h2}
        onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}
      >
        <Box component="span" sx={{ fontWeight: 700, fontSize: 14, px: 0.25 }}>
          H2
        </Box>
      </ToolButton>
      <ToolButton
        label="Subheading"
        selected={state.h3}
        onClick={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}
      >
        <Box component="span" sx={{ fontWeight: 700, fontSize: 13, px: 0.25 }}>
          H3
        </Box>
      </ToolButton>
      <ToolButton
        label="Bulleted list"
        selected={state.bulletList}
        onClick={() => editor.chain().focus().toggleBulletList().run()}
      >
        <FormatListBulletedIcon fontSize="small" />
      </ToolButton>
      <ToolButton
        label="Numbered list"
        selected={state.orderedList}
        onClick={() => editor.chain().focus().toggleOrderedList().run()}
      >
        <FormatListNumberedIcon fontSize="small" />
      </ToolButton>
      <ToolButton label="Link" selected={state.link} onClick={() => setLinkOpen(true)}>
        <LinkIcon fontSize="small" />
      </ToolButton>
      <ToolButton label="Insert image" selected={false} onClick={() => fileInput.current?.click()}>
        <ImageIcon fontSize="small" />
      </ToolButton>
      <input
        ref={fileInput}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        hidden
        aria-label="Image file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // The same file may be chosen again after a refusal.
          event.target.value = '';
          if (file) insertImage(file);
        }}
      />
      {linkOpen && (
        <LinkDialog
          initial={(editor.getAttributes('link').href as string | undefined) ?? ''}
          onClose={() => setLinkOpen(false)}
          onSave={(href) => {
            setLinkOpen(false);
            const chain = editor.chain().focus().extendMarkRange('link');
            if (href) chain.setLink({ href }).run();
            else chain.unsetLink().run();
          }}
        />
      )}
    </Box>
  );
}

function ToolButton({
  label,
  selected,
  onClick,
  children,
}: {
  label: string;
  selected: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <ToggleButton
        value={label}
        size="small"
        selected={selected}
        aria-label={label}
        // The text keeps the focus (and its selection) while the button is pressed, as
        // in any editor's toolbar. Otherwise the button took it, and TipTap's focus()
        // gave it back only on the next animation frame: keys typed meanwhile were lost.
        // Tab and Enter still reach the button from the keyboard.
        onMouseDown={(event) => event.preventDefault()}
        onChange={onClick}
        sx={{ border: 0, minWidth: 36 }}
      >
        {children}
      </ToggleButton>
    </Tooltip>
  );
}

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** Asks for a link's address; an empty address removes the link. */
function LinkDialog({
  initial,
  onClose,
  onSave,
}: {
  initial: string;
  onClose: () => void;
  onSave: (href: string) => void;
}) {
  const titleId = useId();
  const [href, setHref] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const save = () => {
    const text = href.trim();
    if (!text) return onSave('');
    // The server keeps only web and mail links; a bare domain means the web.
    if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !SAFE_LINK.test(text)) {
      setProblem('Links must start with http://, https:// or mailto:.');
      return;
    }
    onSave(SAFE_LINK.test(text) ? text : `https://${text}`);
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Link</DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <DialogContent sx={{ pt: 1 }}>
          <Box sx={{ pt: 1 }}>
            <TextInput
              name="href"
              label="Address"
              value={href}
              onChange={(event) => {
                setHref(event.target.value);
                setProblem(null);
              }}
              error={Boolean(problem)}
              helperText={problem ?? 'Leave empty to remove the link.'}
            />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained">
            Save link
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
