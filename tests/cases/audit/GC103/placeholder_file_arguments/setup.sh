set -e
mkdir -p test
printf 'test("real", () => {});\n' > test/real.test.js
git add -A && git commit -q -m 'add the real test'
mkdir -p packages/app && git mv test packages/app/test && git commit -q -m 'move the tests into packages/app'
