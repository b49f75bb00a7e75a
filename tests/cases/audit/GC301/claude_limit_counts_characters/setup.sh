set -e
# 900 rules of multi-byte text: 46,800 bytes of UTF-8 but 21,600 characters, within Claude Code's
# 40,000-character warning; a second file of ASCII text over 40,000 characters is over it.
mkdir -p cjk ascii
for n in $(seq 1 900); do printf -- '- 規則 %05d は短く、理由を書くこと。\n' "$n"; done > cjk/CLAUDE.md
for n in $(seq 1 860); do printf -- '- Keep rule %05d short and say why it exists.\n' "$n"; done > ascii/CLAUDE.md
git add -A && git commit -q -m memory
