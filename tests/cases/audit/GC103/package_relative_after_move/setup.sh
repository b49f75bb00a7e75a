set -e
mkdir -p src/ui src/electron && echo 'export const ui = 1' > src/ui/index.ts && echo 'export const app = 1' > src/electron/main.ts
printf '# Layout\n\n- The UI is in `src/ui/index.ts`.\n' > AGENTS.md
git add -A && GIT_AUTHOR_DATE=2024-01-01T12:00:00Z GIT_COMMITTER_DATE=2024-01-01T12:00:00Z git commit -q -m 'one package'
mkdir -p packages/spotlight && git mv src packages/spotlight/src
GIT_AUTHOR_DATE=2024-06-01T12:00:00Z GIT_COMMITTER_DATE=2024-06-01T12:00:00Z git commit -q -m 'ref: convert into a monorepo'
