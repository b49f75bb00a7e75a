set -e
mkdir -p examples/old
echo '# Old' > examples/old/a.md
printf '# Security\n\n- The samples live in `examples/samples/basic.md`.\n' > AGENTS.md
git add -A && git commit -q -m 'the examples and the guide'
git rm -q -r examples
GIT_AUTHOR_DATE=2025-03-01T12:00:00Z GIT_COMMITTER_DATE=2025-03-01T12:00:00Z git commit -q -m 'chore: remove examples'
