set -e
# changelog fragments, one per PR, that each release consumes; an examples folder cleaned up once
mkdir -p changelog examples src/execution
for v in 0 1 2; do echo "export const v = $v;" > src/execution/v$v.ts; done
echo '# v0' > CHANGELOG.md
printf 'print(1)\n' > examples/07-interruptible.py
printf 'print(2)\n' > examples/08-tools.py
printf 'print(3)\n' > examples/09-vision.py
for pr in 3519 3522 3540; do echo "- change $pr" > changelog/$pr.added.md; done
echo '- fix' > changelog/3519.fixed.md
git add -A && git commit -q -m 'fragments for 0.1'
git rm -q changelog/*.md && git commit -q -m 'Update changelog for version 0.1'
mkdir -p changelog
for pr in 4413 4939 5122; do echo "- change $pr" > changelog/$pr.added.md; done
git add -A && git commit -q -m 'fragments for 0.2'
git rm -q examples/07-interruptible.py && git commit -q -m 'drop the interruptible example'
git rm -q src/execution/v0.ts && git commit -q -m 'drop the legacy engine'
