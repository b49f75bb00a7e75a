set -e
mkdir -p pkg-a pkg-b
printf '# A\n\n- Run the unit tests with `pnpm test` before every push to the main branch.\n- Format code with prettier before committing changes.\n' > pkg-a/AGENTS.md
cp pkg-a/AGENTS.md pkg-b/AGENTS.md && sed -i 's/# A/# B/' pkg-b/AGENTS.md
git add -A && git commit -q -m 'same rules in both packages'
