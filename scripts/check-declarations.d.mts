/** Types of `check-declarations.mjs` (for the test that runs it). */

/** The package a module specifier names (`zod/v4/core` → `zod`), or undefined for a path. */
export function packageOf(specifier: string): string | undefined;

/** Every module a declaration file's text imports or references, comments left out. */
export function declarationImports(text: string): string[];

export interface UndeclaredImport {
  /** The declaration file, relative to the package's folder. */
  readonly file: string;
  readonly specifier: string;
  readonly package: string;
}

export interface DeclarationCheck {
  readonly name: string;
  /** Declaration files read in `dist/` (0: the package is not built). */
  readonly files: number;
  readonly problems: UndeclaredImport[];
}

/** The imports of `packageDir/dist`'s declarations that name a package it does not depend on. */
export function undeclaredImports(packageDir: string): DeclarationCheck;

/** Every workspace package of the repository at `root`, checked. */
export function checkDeclarations(root: string): (DeclarationCheck & { readonly dir: string })[];
