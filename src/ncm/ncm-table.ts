import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * The NCM table (Nomenclatura Comum do Mercosul) as Receita Federal publishes it ("Tabela NCM vigente", Siscomex
 * Classif), kept compact: each entry's code (digits only), description and validity dates. Chapters, positions and
 * sub-positions are kept too, for the path that gives a leaf such as "Outros" its meaning; a product's NCM is a leaf of
 * 8 digits. See docs/ncm-table.md.
 */

/** The official download's shape (the fields this service reads). */
export interface OfficialNcmDocument {
  Data_Ultima_Atualizacao_NCM: string;
  Ato: string;
  Nomenclaturas: Array<{ Codigo: string; Descricao: string; Data_Inicio?: string; Data_Fim?: string }>;
}

/** [code (digits), description, validFrom (YYYY-MM-DD), validTo (YYYY-MM-DD)] */
export type CompactNcmEntry = [string, string, string, string];

/** What the shipped file holds. */
export interface CompactNcmTable {
  /** The publication this table is: its date line and its act, as the official file states them. */
  version: { updatedAt: string; act: string };
  source: { url: string; retrievedAt: string; sha256: string };
  /** Set on a file made for tests: never the official table. */
  fixture?: string;
  entries: CompactNcmEntry[];
}

export const OFFICIAL_NCM_URL = 'https://portalunico.siscomex.gov.br/classif/api/publico/nomenclatura/download/json';

/** Today's date in Brazil, where the table's dates are calendar days. */
export function brazilianDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** `31/12/9999` → `9999-12-31`; anything else is refused, so that a changed format fails the refresh, not a lookup. */
function isoDate(text: string | undefined, code: string, field: string): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec((text ?? '').trim());
  if (!match) throw new Error(`NCM ${code}: ${field} "${text ?? ''}" is not a DD/MM/YYYY date`);
  return `${match[3]}-${match[2]}-${match[1]}`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The description as people read it: without the markup (`<i>Gallus domesticus</i>`) and the level dashes. */
export function cleanDescription(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (entity, name: string) =>
      name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (ENTITIES[name.toLowerCase()] ?? entity),
    )
    .replace(/^[\s\-–]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The official document, checked and made compact; throws on anything that is not the published shape. */
export function compactOfficialTable(document: unknown, source: CompactNcmTable['source']): CompactNcmTable {
  const doc = document as Partial<OfficialNcmDocument> | null;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.Nomenclaturas)) throw new Error('not the NCM table: no Nomenclaturas list');
  if (typeof doc.Data_Ultima_Atualizacao_NCM !== 'string' || typeof doc.Ato !== 'string') {
    throw new Error('not the NCM table: Data_Ultima_Atualizacao_NCM or Ato missing');
  }
  const entries: CompactNcmEntry[] = doc.Nomenclaturas.map((item) => {
    const code = String(item.Codigo ?? '').replace(/\D/g, '');
    if (code.length < 2 || code.length > 8) throw new Error(`NCM "${String(item.Codigo)}" is not a code of 2 to 8 digits`);
    return [
      code,
      cleanDescription(String(item.Descricao ?? '')),
      isoDate(item.Data_Inicio ?? '01/01/0001', code, 'Data_Inicio'),
      isoDate(item.Data_Fim ?? '31/12/9999', code, 'Data_Fim'),
    ];
  });
  if (!entries.some(([code]) => code.length === 8)) throw new Error('not the NCM table: no code of 8 digits');
  return { version: { updatedAt: doc.Data_Ultima_Atualizacao_NCM, act: doc.Ato }, source, entries };
}

export const NCM_STATUSES = ['valid', 'expired', 'not-yet-valid', 'unknown'] as const;
export type NcmStatus = (typeof NCM_STATUSES)[number];

export interface NcmLeaf {
  code: string;
  description: string;
  /** The chapter, position and sub-positions above it, outermost first */
  path: string[];
  validFrom: string;
  validTo: string;
}

/** Lower case, without accents or punctuation: how both the descriptions and the query are compared. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface IndexedLeaf extends NcmLeaf {
  /** The folded words of the leaf and its path */
  words: string[];
}

/** The table in memory: about 10 000 leaves, searched by scanning (a few milliseconds), looked up by code. */
export class NcmTable {
  private readonly leaves: IndexedLeaf[];
  private readonly byCode = new Map<string, IndexedLeaf[]>();

  constructor(readonly data: CompactNcmTable) {
    const descriptions = new Map(data.entries.map(([code, description]) => [code, description]));
    this.leaves = data.entries
      .filter(([code]) => code.length === 8)
      .map(([code, description, validFrom, validTo]) => {
        const path: string[] = [];
        for (const length of [2, 4, 5, 6, 7]) {
          const parent = descriptions.get(code.slice(0, length));
          if (parent !== undefined && path[path.length - 1] !== parent) path.push(parent);
        }
        const words = [...new Set(foldForSearch([...path, description].join(' ')).split(' '))];
        return { code, description, path, validFrom, validTo, words };
      })
      .sort((a, b) => a.code.localeCompare(b.code) || a.validFrom.localeCompare(b.validFrom));
    for (const leaf of this.leaves) this.byCode.set(leaf.code, [...(this.byCode.get(leaf.code) ?? []), leaf]);
  }

  get size(): number {
    return this.leaves.length;
  }

  /** The entry of an 8-digit code valid on `day` (YYYY-MM-DD), else its latest one; undefined when the table lacks it. */
  find(code: string, day: string): { leaf: NcmLeaf; status: NcmStatus } | undefined {
    const versions = this.byCode.get(code);
    if (!versions) return undefined;
    const current = versions.find((leaf) => leaf.validFrom <= day && day <= leaf.validTo);
    const leaf = current ?? versions[versions.length - 1]!;
    return { leaf: strip(leaf), status: current ? 'valid' : leaf.validTo < day ? 'expired' : 'not-yet-valid' };
  }

  /**
   * The leaves matching every term of `query`: a term of digits (dots allowed) is a code prefix, a word the start of a
   * word of the description or of its path, accents and case ignored. Ordered by code.
   */
  search(query: string, offset: number, limit: number): { items: NcmLeaf[]; total: number } {
    type Term = { kind: 'code'; code: string } | { kind: 'words'; words: string[] };
    const terms = query
      .split(/\s+/)
      .map((term): Term =>
        /^[\d.]+$/.test(term)
          ? { kind: 'code', code: term.replace(/\./g, '') }
          : { kind: 'words', words: foldForSearch(term).split(' ').filter(Boolean) },
      )
      .filter((term) => (term.kind === 'code' ? term.code !== '' : term.words.length > 0));
    const matches = this.leaves.filter((leaf) =>
      terms.every((term) =>
        term.kind === 'code' ? leaf.code.startsWith(term.code) : term.words.every((word) => leaf.words.some((own) => own.startsWith(word))),
      ),
    );
    return { items: matches.slice(offset, offset + limit).map(strip), total: matches.length };
  }
}

function strip({ code, description, path, validFrom, validTo }: IndexedLeaf): NcmLeaf {
  return { code, description, path, validFrom, validTo };
}

/** Reads a table file written by `npm run ncm:refresh` (gzip'd JSON). */
export function readNcmTableFile(file: string): CompactNcmTable {
  const data = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as CompactNcmTable;
  if (!data?.version || !Array.isArray(data.entries)) throw new Error(`${file} is not an NCM table written by ncm:refresh`);
  return data;
}
