set -e
mkdir -p src/scss test
echo '$base: 20px;' > src/scss/vars.scss
echo 'module.exports = {}' > test/fixtures.js
git add -A && git commit -q -m 'scss tokens and fixtures'
git rm -q -r src/scss test/fixtures.js && git commit -q -m 'drop scss and fixtures'
