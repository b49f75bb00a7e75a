set -e
mkdir -p bot
printf 'def plug():\n    pass\n' > bot/modules.py
printf 'def run():\n    pass\n' > bot/core.py
git add -A && git commit -q -m 'add the bot'
mkdir -p bot/src/bot && git mv bot/modules.py bot/src/bot/modules.py && git mv bot/core.py bot/src/bot/core.py
git commit -q -m 'organize the bot into a library'
git rm -q bot/src/bot/modules.py && git commit -q -m 'replace the inlined plugin loader'
