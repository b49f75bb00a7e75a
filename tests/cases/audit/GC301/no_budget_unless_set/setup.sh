set -e
# Views of ~12,000 tokens, within every agent's own limit, and no audit.budget_tokens in the config: the token
# budget is the team's own rule, so nothing is reported.
rules() { for n in $(seq 1 "$1"); do printf -- '- Keep rule %05d short and say why it exists.\n' "$n"; done; }
mkdir -p web
rules 520 > CLAUDE.md
rules 520 > web/CLAUDE.md
git add -A && git commit -q -m memory
