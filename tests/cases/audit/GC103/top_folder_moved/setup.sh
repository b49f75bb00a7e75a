set -e
printf '# Code\n\n- The app starts in `src/app.ts`.\n- Helpers are in `src/utils/strings.ts`.\n- Emission: `core/emitter.rs`.\n' > AGENTS.md
mkdir -p src core && echo 'export const app = 1' > src/app.ts && echo 'export const db = 1' > src/db.ts && printf 'pub fn emit() {\n    // a long body that changes when it is split\n}\n' > core/emitter.rs && git add -A && git commit -q -m 'one package'
mkdir -p packages/core && git mv src packages/core/src && git commit -q -m 'move src into packages/core'
git rm -q core/emitter.rs && mkdir -p core/emitter && printf 'mod select;\n' > core/emitter/mod.rs && printf 'pub fn select() {}\n' > core/emitter/select.rs && git add -A && git commit -q -m 'split the emitter into a module'
mkdir -p docs && echo '# State' > docs/state.md && git add -A && git commit -q -m 'state docs'
mkdir -p docs/agents && git mv docs/state.md docs/agents/state.md && git commit -q -m 'docs per package'
