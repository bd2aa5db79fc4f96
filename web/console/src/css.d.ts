// Style sheets imported for their side effect: esbuild bundles them into console.css.
declare module "*.css";
