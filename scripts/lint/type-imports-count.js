// import-x's no-cycle skips `import type` and `import { type … }` by design: such an import is
// erased from the built JavaScript, so it cannot make a module load before its dependency. Ferry
// counts them anyway (docs/architecture.md, "Layers"): a type-only cycle still ties two modules
// into one, so neither can be read, tested or moved without the other (issue 34 found two).
// This module gives no-cycle a view in which every import is a value import: its parser for the
// modules no-cycle walks, and `countingTypeImports` for the module being linted.
import { parseForESLint as parseTypeScript } from '@typescript-eslint/parser';

const MODULE_STATEMENTS = new Set([
  'ImportDeclaration',
  'ExportNamedDeclaration',
  'ExportAllDeclaration',
  'TSImportEqualsDeclaration',
]);

/** The same statement, read as a value import or export. */
function asValueStatement(statement) {
  const specifiers = statement.specifiers?.map(asValueSpecifier);
  return new Proxy(statement, {
    get(target, key, receiver) {
      if (key === 'importKind' || key === 'exportKind') return 'value';
      if (key === 'specifiers') return specifiers;
      return Reflect.get(target, key, receiver);
    },
  });
}

function asValueSpecifier(specifier) {
  return new Proxy(specifier, {
    get(target, key, receiver) {
      if (key === 'importKind' || key === 'exportKind') return 'value';
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * A parser for `import-x/parsers`: typescript-eslint's, with every top-level import and export
 * read as a value one. import-x parses the modules it walks with it, apart from ESLint's own
 * parse, so no other rule sees this view.
 */
export function parseForESLint(code, options) {
  const result = parseTypeScript(code, options);
  const body = result.ast.body.map((statement) =>
    MODULE_STATEMENTS.has(statement.type) ? asValueStatement(statement) : statement,
  );
  return { ...result, ast: { ...result.ast, body } };
}

/** `rule` as it would be if the linted module's type imports were value imports. */
export function countingTypeImports(rule) {
  return {
    ...rule,
    create(context) {
      const visitors = rule.create(context);
      return Object.fromEntries(
        Object.entries(visitors).map(([selector, visit]) => [
          selector,
          MODULE_STATEMENTS.has(selector) ? (node) => visit(asValueStatement(node)) : visit,
        ]),
      );
    },
  };
}
