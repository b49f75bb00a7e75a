set -e
mkdir -p docs src/legacy
echo '# Guide' > docs/guide-old.md
ln -s ../x /dev/null 2>/dev/null || true
printf 'def load():\n    pass\n' > src/legacy/csv_import.py
git add -A && git commit -q -m 'add guide and legacy importer'
mkdir -p docs && git mv docs/guide-old.md docs/guide.md && git commit -q -m 'rename guide'
git mv docs/guide.md docs/handbook.md && git commit -q -m 'guide is now the handbook'
git rm -q -r src/legacy && git commit -q -m 'drop the legacy importer'
