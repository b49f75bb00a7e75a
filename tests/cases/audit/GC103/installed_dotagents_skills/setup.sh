set -e
mkdir -p .cursor/rules docs
echo '# Old rule' > .cursor/rules/old.mdc && echo '{}' > .cursor/mcp.json && echo '# Guide' > docs/guide.md
git add -A && git commit -q -m 'cursor rules and the guide'
git rm -q -r .cursor docs && git commit -q -m 'ref(agents): convert commands to dotagents skills'
