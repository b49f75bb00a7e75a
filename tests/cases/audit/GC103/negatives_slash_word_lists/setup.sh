set -e
mkdir -p lockfile test
echo 'export const parse = 1' > lockfile/index.ts
echo 'test' > test/run.ts
git add -A && git commit -q -m 'add the lockfile parser'
git rm -q -r lockfile test && git commit -q -m 'drop the lockfile parser'
