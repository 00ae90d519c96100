import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Modules that need something another module implements receive it through a port bound by Nest's DI: an interface
 * and an injection token owned by the module that needs it, bound (`{ provide: TOKEN, useExisting: Implementation }`)
 * in a module's `providers`, where a reader finds it ("Ports" in docs/adding-a-module.md). Never the runtime hook this
 * replaced: a provider handing itself (or a callback) to another one from its `onModuleInit`
 * (`lookup.provideGroupLoader(this)`), whose binding no module shows and whose absence surfaced only at the first use.
 */
const RUNTIME_REGISTRATION: ReadonlyArray<[string, RegExp]> = [
  ['a method through which a provider is handed in at run time (`provideX(...)`)', /^\s+(?:public\s+)?provide[A-Z]\w*\s*\(/],
  ['a call handing a provider in at run time (`x.provideX(...)`)', /\.provide[A-Z]\w*\s*\(/],
  ['a provider handing itself to another (`x.register(this)`, `x.add(this)`)', /\.(register|add|use|provide)\w*\s*\(\s*this\s*[,)]/],
];

const REGISTERS_IN_ON_MODULE_INIT = /onModuleInit\s*\([^)]*\)[^{]*\{[^}]*\bthis\.\w+\.(register|provide\w*|add|use)\s*\(/s;

function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', 'src'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'));
}

describe('cross-module ports are bound by DI, never registered at run time', () => {
  it('no provider is handed to another through a method called at run time', () => {
    const found = sourceFiles().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          RUNTIME_REGISTRATION.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${index + 1}: ${what}: ${line.trim()}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it("no provider's onModuleInit registers something with another provider", () => {
    const registering = sourceFiles().filter((file) => REGISTERS_IN_ON_MODULE_INIT.test(readFileSync(file, 'utf8')));
    expect(registering).toEqual([]);
  });

  it('recognizes the pattern it forbids', () => {
    const patterns = RUNTIME_REGISTRATION.map(([, pattern]) => pattern);
    expect(patterns.some((pattern) => pattern.test('    this.lookup.provideGroupLoader(this);'))).toBe(true);
    expect(patterns.some((pattern) => pattern.test('  provideCategoryLoader(loader: ProductCategoryLoader): void {'))).toBe(true);
    expect(REGISTERS_IN_ON_MODULE_INIT.test('onModuleInit(): void {\n    this.detail.register({ key: "x" });\n  }')).toBe(true);
    expect(
      patterns.some((pattern) => pattern.test('    { provide: FISCAL_GROUP_LOADER, useExisting: FiscalGroupStoresRepository },')),
    ).toBe(false);
  });
});
