// @ts-check
// `npm run lint`: typescript-eslint's type-aware rules over every TypeScript file tsconfig.test.json
// type-checks (library, bench, scripts, tests). Formatting is Prettier's (.prettierrc.json); no rule
// here is about layout.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  // Build output, installed tools, test leftovers and the generated native SDKs (`npm run native:sdks`).
  globalIgnores(["bin/", "build/", "coverage/", ".pulumi-cli/", ".e2e/", "**/node_modules/", "sdks/"]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ["./tsconfig.test.json"], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a name unused on purpose: a type-level assertion
      // (`_XMatchesSchema`), a parameter an interface requires, a field dropped by destructuring.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // `list[i]!` is written on purpose where the index is known to be in range: it says so at the
      // use, and stays correct under noUncheckedIndexedAccess, where this rule would call it needed.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // `async` without `await` is how a method that must return a promise (the dynamic provider's
      // check, diff, update) turns a synchronous throw into a rejection.
      "@typescript-eslint/require-await": "off",
      // An aborted wait rejects with the signal's reason, whatever the caller aborted with, as
      // fetch does.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A `let` assigned once after a closure that reads it (a reply sent before the assignment)
      // cannot be a `const` declared at the assignment: the closure would read it before it exists.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // A promise returned from inside try/catch/finally without `await` escapes the catch and runs
      // the finally before it settles.
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // Tests read what went over the wire as untyped JSON (`any`) on purpose, and compare it.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Tests destructure the handles a suite helper returns (`const { env, urn } = lifecycleSuite(...)`).
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Plain CommonJS scripts run by Node (jest.config.js, scripts/run-ts.js), and this file.
    files: ["**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs" },
  },
  {
    // The example projects and templates users copy: each is type-checked with its own tsconfig by
    // the e2e suite once the package is installed into it, so here only the rules that need no types apply.
    files: ["examples/**/*.ts", "templates/**/*.ts"],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
