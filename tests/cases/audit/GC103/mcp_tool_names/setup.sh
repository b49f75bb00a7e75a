set -e
here=$(dirname "$0")/files
cp "$here/AGENTS.md" .
mkdir -p src/old
printf 'def render_widget_tree():\n    pass\n\n\ndef browser_take_screenshot(fullPage):\n    pass\n\n\ndef get_metadata(fileKey, nodeId):\n    pass\n' > src/old/removed.py
git add -A && git commit -q -m 'the code the context file was written against'
git rm -q -r src/old && git commit -q -m 'remove the old module'
