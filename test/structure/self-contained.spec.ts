import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The repository stands on its own: no file points at documents outside it (a service contract
 * and its sections, files beside the checkout, issue numbers). A decision the code relies on is
 * written in docs/api-decisions.md and referred to by its heading. Sections of public standards
 * (`RFC 6749 §5.2`) are fine.
 */
const THIS_FILE = 'test/structure/self-contained.spec.ts';
const DECISIONS = 'docs/api-decisions.md';
/** Not text, or written by npm. */
// SEFAZ's published schemas are kept verbatim: their documentation cites Brazilian law by section (§).
const SKIPPED = /(^|\/)package-lock\.json$|^test\/fixtures\/nfe\/.+\.xsd$|\.(png|jpe?g|gif|ico|webp|woff2?|ttf|eot|pdf|zip|gz|css|svg)$/;

const OUTSIDE_REFERENCES: ReadonlyArray<[string, RegExp]> = [
  ['a section sign that is not an RFC section', /§/],
  ['the contract (say "API contract" for the general sense)', /(?<!\bAPI )\bcontract\b/i],
  ['a document beside the checkout', /\b(CONTRACT|STYLE)\.md\b|interface-spec|\.\.\/shared\b|shared\/samples|\/work\/shared/i],
  // A fiscal group's revisions are the service's own ("revision 4 takes effect…"); a bare "(revision 2)" or a
  // revision of a document named beside it points outside.
  [
    'a revision of an outside document',
    /\(revision\s+\d+\)|\b(spec|specification|document|rev\.?)\s+revision\s+\d+\b|\brevision\s+\d+\s+of\s+the\s+(spec|specification|document)\b/i,
  ],
  ['an issue or pull request number', /\b(issues?|PR|pull request)\s*#?\d+|(^|[\s([])#\d{1,5}(?![\w-])/i],
];

/** What a line points at outside the repository, once RFC section references are set aside. */
export function outsideReferences(line: string): string[] {
  const withoutRfcSections = line.replace(/\bRFC \d+,? §\s?\d+(\.\d+)*/g, 'RFC');
  return OUTSIDE_REFERENCES.filter(([, pattern]) => pattern.test(withoutRfcSections)).map(([name]) => name);
}

function trackedTextFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && file !== THIS_FILE && !SKIPPED.test(file))
    .filter((file) => {
      try {
        return !readFileSync(file, 'utf8').includes('\0');
      } catch {
        return false; // listed but deleted in the working tree
      }
    });
}

/** The headings of docs/api-decisions.md, the names comments refer to. */
function decisionHeadings(): Set<string> {
  return new Set([...readFileSync(DECISIONS, 'utf8').matchAll(/^#{2,3} (.+)$/gm)].map((match) => match[1]!.trim()));
}

describe('the repository stands on its own', () => {
  it('recognises references to outside documents (the checks below can fail)', () => {
    expect(outsideReferences('// The one rule for status changes (contract §7).')).toEqual([
      'a section sign that is not an RFC section',
      'the contract (say "API contract" for the general sense)',
    ]);
    expect(outsideReferences('/** Defaults of the contract. */')).toHaveLength(1);
    expect(outsideReferences('See CONTRACT.md')).toContain('a document beside the checkout');
    expect(outsideReferences("new URL('../../../shared/samples/pos/x.json', import.meta.url)")).toHaveLength(1);
    expect(outsideReferences('Status matching ignores case (revision 2).')).toHaveLength(1);
    expect(outsideReferences('as revision 3 of the specification says')).toHaveLength(1);
    expect(outsideReferences("await screen.findByText('Revision 4 was cancelled.');")).toEqual([]);
    expect(outsideReferences('### Fixed (hardening, issue 13)')).toHaveLength(1);
    expect(outsideReferences("describe('shutdown (issue #18)'")).toHaveLength(1);
    expect(outsideReferences('fixed in #26')).toHaveLength(1);
    expect(outsideReferences('Errors follow RFC 6749 §5.2 / RFC 6750 §3.1; client credentials are RFC 6749 §4.4.')).toEqual([]);
    expect(outsideReferences('A change of the API contract breaks typecheck; the token is issued once.')).toEqual([]);
    expect(outsideReferences('`items[0].price`, color #228be6, step 3 of 4')).toEqual([]);
  });

  it('no tracked file points at a document outside the repository', () => {
    const found = trackedTextFiles().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => outsideReferences(line).map((what) => `${file}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`)),
    );
    expect(found).toEqual([]);
  });

  it(`every reference to a heading of ${DECISIONS} names one that exists`, () => {
    const headings = decisionHeadings();
    expect(headings.size).toBeGreaterThan(10);
    const dangling = trackedTextFiles().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/"([^"\n]+)" in docs\/api-decisions\.md/g)]
        .filter((match) => !headings.has(match[1]!))
        .map((match) => `${file}: "${match[1]}"`),
    );
    expect(dangling).toEqual([]);
  });
});
