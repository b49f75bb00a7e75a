set -e
here=$(dirname "$0")/files
cp "$here/AGENTS.md" .
mkdir -p src/old
printf 'class RetryPolicy:\n    pass\n\n\ndef configure(max_retries=3, batch_size=10):\n    pass\n' > src/old/removed.py
git add -A && git commit -q -m 'the code the context file was written against'
git rm -q -r src/old && git commit -q -m 'remove the old module'
