/**
 * The structure rules `npm run lint` enforces (docs/conventions.md, "Dependencies"):
 * feature folders depend on each other without cycles, the shared layers (common/, config/,
 * database/, tax-engine/) import no feature, and nothing imports the application's root module.
 */
const SHARED = '^src/(common|config|database|tax-engine|types)/';
const ROOT = '^src/(app\\.module|app\\.factory|main|server)\\.ts$';
/** Entry points: they start the application (server, CLI, document and README writers). */
const ENTRY = ['^src/(main|server|app\\.factory)\\.ts$', '^src/cli/', '^src/write-openapi\\.ts$', '^src/docs/write-readme\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Two folders of src/ import each other (directly or through others): one of them must own the shared piece.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      comment: 'A cycle between files: module load order then depends on who is imported first.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-feature',
      comment: 'common/, config/, database/ and tax-engine/ are below the features: they import none of them.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: '^src/', pathNot: [SHARED] },
    },
    {
      name: 'no-import-of-the-root',
      comment: 'Features are registered by the root module; they never import it (or the bootstrap files).',
      severity: 'error',
      from: { path: '^src/', pathNot: ENTRY },
      to: { path: ROOT },
    },
    {
      name: 'fiscal-groups-import-no-orders',
      comment:
        'The fiscal groups ask about orders through their port (TaxedOrders, bound in OrdersPortsModule), never by importing the orders module (docs/adding-a-module.md, "Ports").',
      severity: 'error',
      from: { path: '^src/(fiscal-groups|fiscal-lookup)/' },
      to: { path: '^src/orders/' },
    },
    {
      name: 'src-imports-no-tests-or-bench',
      comment: 'The service does not depend on test or benchmark code.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
