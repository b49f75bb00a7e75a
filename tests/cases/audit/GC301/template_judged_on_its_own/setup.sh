set -e
# AGENTS.md files of a given size: a heading, then numbered rules of ~80 bytes
write() { mkdir -p "$(dirname "$1")"; { echo "# Guide"; echo; i=1; while [ $(( i * 80 )) -lt "$2" ]; do printf -- '- Rule %05d: keep the handler small, typed and tested before every merge here.\n' "$i"; i=$((i + 1)); done; } > "$1"; }
write AGENTS.md 20000
write backend/AGENTS.md 6000
write backend/sandbox/templates/web/AGENTS.md 14000
write examples/big/AGENTS.md 34000
git add -A && git commit -q -m 'guides'
