// What `import "./gifts.css"` gives TypeScript: nothing (esbuild bundles the file into the
// widget's HTML). TypeScript 6 and later check side-effect imports, and need this declaration.
declare module "*.css";
