set -e
here=$(dirname "$0")/files
cp "$here/CLAUDE.md" .
mkdir -p src/old
printf 'def parse_config(path):\n    pass\n' > src/old/removed.py
git add -A && git commit -q -m 'the code the context file was written against'
git rm -q -r src/old && git commit -q -m 'remove the old module'
