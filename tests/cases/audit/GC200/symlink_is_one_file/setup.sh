set -e
printf '# Agents\n' > AGENTS.md && ln -s AGENTS.md CLAUDE.md && git add -A && git commit -q -m 'link'
