set -e
mkdir -p app tests src
printf 'class Manager:\n    pass\n' > app/manager.py
echo 'export const p = 1' > src/parser.test.ts
echo 'export const q = 1' > src/cache.ts
mkdir -p docs && echo '# Style' > docs/style.md
git add -A && git commit -q -m 'manager, parser test, cache'
mkdir -p app/manager && git mv app/manager.py app/manager/redis.py && git commit -q -m 'split the manager'
git rm -q src/parser.test.ts src/cache.ts docs/style.md && git commit -q -m 'drop the parser and the cache'
