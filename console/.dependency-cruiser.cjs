/**
 * The console's import graph (`npm run lint:deps`): no cycle between its files, so that what a module sees at load
 * time never depends on which of two files was imported first (the API client and the session once needed each other).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-console-file-cycles',
      comment: 'A cycle between files of the console: one of them must own the shared piece (types go in api/schemas.ts).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
