set -e
mkdir -p .contributing docs
echo '# Adding a pragma' > .contributing/pragmas.md
echo '# Release' > docs/release.md
git add -A && git commit -q -m 'add the pragma guides and the release notes'
git rm -q -r .contributing docs && git commit -q -m 'docs: replace pragma guides with a skill'
