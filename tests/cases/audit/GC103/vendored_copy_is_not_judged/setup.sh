set -e
mkdir -p src/legacy vendor/github.com/acme/sdk/pkg/version
printf 'def load():\n    pass\n' > src/legacy/csv_import.py
printf '# SDK agents\n\n- Bump `pkg/version/version.go` on release.\n' > vendor/github.com/acme/sdk/AGENTS.md
printf 'package version\n' > vendor/github.com/acme/sdk/pkg/version/version.go
git add -A && git commit -q -m 'vendor the sdk'
git rm -q vendor/github.com/acme/sdk/pkg/version/version.go && git rm -q -r src/legacy && git commit -q -m 'update the vendored sdk; drop the legacy importer'
