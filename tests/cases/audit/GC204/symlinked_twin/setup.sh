set -e
ln -s AGENTS.md CLAUDE.md
