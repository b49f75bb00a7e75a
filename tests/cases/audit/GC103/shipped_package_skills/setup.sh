set -e
mkdir -p src/server
echo 'export const t = 1' > src/server/trpc.ts
git add -A && git commit -q -m 'the server before the monorepo'
git rm -q -r src && git commit -q -m 'move into packages/'
