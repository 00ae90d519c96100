import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const SCHEMA_DIR = join(process.cwd(), 'test/fixtures/nfe/PL_010_V1.30');
const schemaFiles = () =>
  readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.xsd'))
    .map((fileName) => ({ fileName, contents: readFileSync(join(SCHEMA_DIR, fileName), 'utf8') }));

const NFE_ITEMS_OPEN = '<NFeItens xmlns="http://www.portalfiscal.inf.br/nfe">';

/**
 * A fixed NF-e around the service's items: `ide`, `emit` (with the items' CRT), the items' `det` and `total`,
 * `transp`, `pag` (paid in cash, the document's vNF) and a dummy `Signature`. Only the items change between tests.
 */
export function documentAround(itemsXml: string, model: '55' | '65', crt: string): string {
  const start = itemsXml.indexOf(NFE_ITEMS_OPEN);
  const end = itemsXml.lastIndexOf('</NFeItens>');
  if (start < 0 || end < 0) throw new Error(`not an NFeItens document: ${itemsXml.slice(0, 200)}`);
  const inner = itemsXml.slice(start + NFE_ITEMS_OPEN.length, end);
  const vNF = /<vNF>([^<]+)<\/vNF>/.exec(inner)?.[1] ?? '0.00';
  const id = `NFe35261211222333000181${model}0010000000011123456780`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<NFe xmlns="http://www.portalfiscal.inf.br/nfe">' +
    `<infNFe versao="4.00" Id="${id}">` +
    '<ide><cUF>35</cUF><cNF>12345678</cNF><natOp>VENDA</natOp>' +
    `<mod>${model}</mod><serie>1</serie><nNF>1</nNF><dhEmi>2026-12-07T12:00:00-03:00</dhEmi><tpNF>1</tpNF><idDest>1</idDest>` +
    `<cMunFG>3550308</cMunFG><tpImp>${model === '65' ? '4' : '1'}</tpImp><tpEmis>1</tpEmis><cDV>0</cDV><tpAmb>2</tpAmb>` +
    '<finNFe>1</finNFe><indFinal>1</indFinal><indPres>1</indPres><procEmi>0</procEmi><verProc>1.0</verProc></ide>' +
    '<emit><CNPJ>11222333000181</CNPJ><xNome>Restaurante de Teste</xNome><enderEmit><xLgr>Rua Augusta</xLgr><nro>100</nro>' +
    '<xBairro>Consolacao</xBairro><cMun>3550308</cMun><xMun>Sao Paulo</xMun><UF>SP</UF><CEP>01304000</CEP></enderEmit>' +
    `<IE>123456789012</IE><CRT>${crt}</CRT></emit>` +
    inner +
    '<transp><modFrete>9</modFrete></transp>' +
    `<pag><detPag><tPag>01</tPag><vPag>${vNF}</vPag></detPag></pag>` +
    '</infNFe>' +
    '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo>' +
    '<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>' +
    '<SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/>' +
    `<Reference URI="#${id}"><Transforms>` +
    '<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>' +
    '<Transform Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/></Transforms>' +
    '<DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><DigestValue>AAAA</DigestValue></Reference></SignedInfo>' +
    '<SignatureValue>AAAA</SignatureValue><KeyInfo><X509Data><X509Certificate>AAAA</X509Certificate></X509Data></KeyInfo></Signature>' +
    '</NFe>'
  );
}

/** The schema's complaints about the items copied into the fixed NF-e (empty when it validates against nfe_v4.00.xsd). */
export async function schemaErrorsOf(itemsXml: string, model: '55' | '65', crt: string): Promise<string[]> {
  const files = schemaFiles();
  const result = await validateXML({
    xml: [{ fileName: 'nfe.xml', contents: documentAround(itemsXml, model, crt) }],
    schema: files.find((file) => file.fileName === 'nfe_v4.00.xsd')!,
    preload: files.filter((file) => file.fileName !== 'nfe_v4.00.xsd'),
    maxMemoryPages: 4096,
  });
  return result.errors.map((error) => error.rawMessage);
}
