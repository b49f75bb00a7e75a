set -e
mkdir -p tests/fixtures
echo 'x' > tests/fixtures/a.txt
cp "$(dirname "$0")/files/AGENTS.md" .
git add -A && git commit -q -m 'add the integration tests and the guide'
git rm -q -r tests
GIT_AUTHOR_DATE=2025-03-01T12:00:00Z GIT_COMMITTER_DATE=2025-03-01T12:00:00Z git commit -q -m 'without integration'
