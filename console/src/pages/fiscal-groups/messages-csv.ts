/** The tax matrix's CSV import and export. */
export const csvMessages = {
  en: {
    title: 'Import and export CSV',
    intro: 'A CSV with a header row of the rule field names (NCM, CEST, CST_ICMS, ICMS_rate, ...) replaces the whole matrix.',
    file: 'Choose a CSV file to import',
    dropZone: 'Or drop a CSV file here',
    dropping: 'Release to import {{name}}',
    importing: 'Importing {{name}}…',
    imported: 'Imported {{name}}: {{count}} NCM rules.',
    importFailed: 'The CSV was not imported: {{message}}',
    errorsTitle: 'Problems in the file (nothing was changed)',
    line: 'Line {{line}}',
    export: 'Export CSV',
    exportFailed: 'Could not export: {{message}}',
    unsavedNote: 'Import replaces the saved matrix; unsaved edits to the table are lost.',
  },
  'pt-BR': {
    title: 'Importar e exportar CSV',
    intro:
      'Um CSV com uma linha de cabeçalho com os nomes dos campos da regra (NCM, CEST, CST_ICMS, ICMS_rate, ...) substitui a matriz inteira.',
    file: 'Escolher um arquivo CSV para importar',
    dropZone: 'Ou solte um arquivo CSV aqui',
    dropping: 'Solte para importar {{name}}',
    importing: 'Importando {{name}}…',
    imported: '{{name}} importado: {{count}} regras NCM.',
    importFailed: 'O CSV não foi importado: {{message}}',
    errorsTitle: 'Problemas no arquivo (nada foi alterado)',
    line: 'Linha {{line}}',
    export: 'Exportar CSV',
    exportFailed: 'Não foi possível exportar: {{message}}',
    unsavedNote: 'A importação substitui a matriz salva; edições não salvas da tabela são perdidas.',
  },
};
