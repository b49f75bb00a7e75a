set -e
mkdir -p legacy/server
printf 'print(1)\n' > legacy/main.py
printf 'FROM python\n' > legacy/server/Dockerfile
git add -A && git commit -q -m 'add the legacy server'
git rm -q -r legacy && git commit -q -m 'archive the legacy server'
