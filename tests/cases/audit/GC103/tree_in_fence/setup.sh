set -e
mkdir -p src/plugins && echo 'x = 1' > src/plugins/a.py && git add -A && git commit -q -m 'plugins'
git rm -q -r src/plugins && git commit -q -m 'remove plugins'
