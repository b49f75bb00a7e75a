set -e
mkdir -p src/Core lib/types old/tools docs
echo '# Core' > src/Core/README.md && echo 'export type H = 1' > lib/types/headers.ts && echo 'x' > old/tools/run.sh && echo '# Guide' > docs/guide.md
git add -A && git commit -q -m 'the first layout'
git rm -q -r src/Core/README.md lib old docs && git commit -q -m 'one README for every package; types into src/lib'
