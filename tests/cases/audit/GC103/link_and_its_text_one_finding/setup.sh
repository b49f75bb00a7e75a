set -e
mkdir -p docs src
echo '# Security' > docs/SECURITY.md
echo 'x = 1' > src/app.py
git add -A && git commit -q -m 'security policy'
git rm -q docs/SECURITY.md && git commit -q -m 'remove SECURITY.md in favor of the org-wide policy'
