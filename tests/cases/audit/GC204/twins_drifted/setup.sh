set -e
R='# Project rules

- Run `pnpm build` before opening a pull request.
- Keep the public API of `src/app.py` stable between minor releases.
- Write a changelog entry under `docs/changes/` for every user-facing change.
- Never commit generated files from `dist/`.
'
printf '%s' "$R" > AGENTS.md; printf '%s' "$R" > CLAUDE.md
git add -A && git commit -q -m 'rules for both agents'
