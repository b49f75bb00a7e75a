set -e
mkdir -p src/legacy docs && echo 'x = 1' > src/legacy/csv.py && echo '# G' > docs/guide.md && echo 'export {}' > src/old-api.ts && echo 'n' > docs/notes.md && git add -A && git commit -q -m 'first layout'
git rm -q -r src/legacy && git commit -q -m 'drop the legacy importer'
git mv docs/guide.md docs/handbook.md && git commit -q -m 'guide is now the handbook'
git rm -q src/old-api.ts docs/notes.md && git commit -q -m 'remove the old api and notes'
