set -e
# The team set a token budget of its own (off by default).
# Two memory files of ~25,000 bytes each (50,000 together, each under Claude Code's 40,000) and one of ~41,000.
rules() { for n in $(seq 1 "$1"); do printf -- '- Keep rule %05d short and say why it exists.\n' "$n"; done; }
mkdir -p web big
rules 520 > CLAUDE.md
rules 520 > web/CLAUDE.md
rules 860 > big/CLAUDE.md
mkdir -p .context && printf 'version: 1\naudit:\n  budget_tokens: 8000\n' > .context/config.yml
git add -A && git commit -q -m memory
