// class-transformer ships this module without a declaration beside it (its types are under types/).
declare module 'class-transformer/cjs/storage.js' {
  export const defaultMetadataStorage: unknown;
}
