set -e
mkdir -p scripts/changes docs
echo '# Guide' > docs/guide.md
git add -A && git commit -q -m 'the guide'
for release in 1 2 3; do
  mkdir -p scripts/changes && echo "# notes $release" > scripts/changes/whats-changed.md
  git add -A && git commit -q -m "prep release notes $release"
  git rm -q scripts/changes/whats-changed.md && git commit -q -m "release v$release"
done
git rm -q docs/guide.md && git commit -q -m 'drop the guide'
