set -e
mkdir -p pkg-a pkg-b
printf '# A\n\n- Run the unit tests with `pnpm test` before every push to the main branch.\n- Format code with prettier before committing changes.\n- Keep every exported function documented with a short docstring.\n' > pkg-a/AGENTS.md
cp pkg-a/AGENTS.md pkg-b/AGENTS.md && sed -i 's/# A/# B/' pkg-b/AGENTS.md
mkdir -p pkg-c pkg-d
printf '# C

- Log every request id at info level.
- Validate every request body with `zod` before it reaches a handler.
- Return errors as RFC 7807 problem documents.
' > pkg-c/AGENTS.md
cp pkg-c/AGENTS.md pkg-d/AGENTS.md && sed -i 's/# C/# D/' pkg-d/AGENTS.md
git add -A && git commit -q -m 'same rules in every package'
