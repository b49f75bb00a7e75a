set -e
# A file outside the work tree that names a path: were it read, its folder's package would be looked up
# up to `/` (the loop that never ended) and its text judged as if it were ours.
printf -- '- See `docs/guide/setup.md`.\n' > ../outside.md
printf '# Rules\n\n@%s/outside.md\n@../outside.md\n@docs/present.md\n' "$(cd .. && pwd)" > CLAUDE.md
mkdir -p docs && echo '# Present' > docs/present.md
git add -A && git commit -q -m 'rules with imports'
