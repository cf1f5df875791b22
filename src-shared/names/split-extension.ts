export interface NameParts {
  /** Everything before the extension; a dotfile such as `.bashrc` is all stem. */
  stem: string;
  /** Starts with its dot, or is empty; `stem + extension` is the name again. */
  extension: string;
}

// An "extension" with spaces or over 16 characters is more likely part of the name itself
// (`Dr. Smith notes`), and cutting or suffixing around it would mangle the name.
const LAST_EXTENSION = /^(.*[^./\\])(\.[^./\\\s]{1,16})$/su;
const INNER_ARCHIVE_EXTENSION = /^(.*[^./\\])(\.[a-z][a-z0-9]{0,3})$/isu;

// After these the previous extension names the archive format, as in `.tar.gz` or `.svg.gz`.
const COMPRESSION_EXTENSIONS = new Set([
  '.br',
  '.bz',
  '.bz2',
  '.gz',
  '.lz',
  '.lz4',
  '.lzma',
  '.xz',
  '.z',
  '.zst',
]);

/**
 * Splits a file name (or the last component of a path) into stem and extension, treating a
 * compressed archive's two extensions as one: `archive.tar.gz` is `archive` + `.tar.gz`.
 */
export function splitExtension(name: string): NameParts {
  const last = LAST_EXTENSION.exec(name);
  if (last === null) return { stem: name, extension: '' };
  const [, stem = '', extension = ''] = last;
  if (COMPRESSION_EXTENSIONS.has(extension.toLowerCase())) {
    const inner = INNER_ARCHIVE_EXTENSION.exec(stem);
    if (inner !== null) {
      const [, innerStem = '', innerExtension = ''] = inner;
      return { stem: innerStem, extension: innerExtension + extension };
    }
  }
  return { stem, extension };
}
