set -e
# AGENTS.md files of a given size: a heading, then numbered rules of ~80 bytes
write() { mkdir -p "$(dirname "$1")"; { echo "# Guide"; echo; i=1; while [ $(( i * 80 )) -lt "$2" ]; do printf -- '- Rule %05d: keep the handler small, typed and tested before every merge here.\n' "$i"; i=$((i + 1)); done; } > "$1"; }
write AGENTS.md 18000
write src/app/cli/agent_templates/AGENTS.md 31000
write src/app/project-templates/AGENTS.md 20000
write src/app/core/AGENTS.md 16000
git add -A && git commit -q -m 'guides'
