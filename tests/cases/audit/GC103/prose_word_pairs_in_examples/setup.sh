set -e
mkdir -p tests/fixtures
echo 'x' > tests/fixtures/a.txt
git add -A && git commit -q -m 'add the integration tests'
git rm -q -r tests && git commit -q -m 'without integration'
