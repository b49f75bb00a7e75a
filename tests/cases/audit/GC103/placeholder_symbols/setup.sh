set -e
here=$(dirname "$0")/files
cp "$here/AGENTS.md" .
mkdir -p src/old
printf 'def SurfacedRows():\n    pass\n\n\ndef parseXML():\n    pass\n\n\ndef WithX():\n    pass\n\n\ndef SurfacedX():\n    pass\n' > src/old/removed.py
git add -A && git commit -q -m 'the code the context file was written against'
git rm -q -r src/old && git commit -q -m 'remove the old module'
