set -e
for p in app-a app-b app-c app-old; do mkdir -p $p; done
printf '# Guide\n\n- Run the unit tests with `bun test` before every push to the main branch.\n- Format code with prettier before committing changes.\n- Keep every exported function documented with a short docstring.\n' > app-old/AGENTS.md
for p in app-a app-b app-c; do cp app-old/AGENTS.md $p/AGENTS.md; done
git add -A && git commit -q -m 'one guide in every app'
