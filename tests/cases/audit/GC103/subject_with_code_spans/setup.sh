set -e
mkdir -p docs
echo '# Guide' > docs/guide.md
git add -A && git commit -q -m 'add the guide'
git mv docs/guide.md docs/handbook.md
git commit -q -m 'Rename `docs/guide.md` to `docs/handbook.md` so the v2 layout of the docs tree reads `handbook` everywhere'
