#!/usr/bin/env bash
# Rewrite the generated option table of docs/user-guide.md from the built
# binary (dpdk-forwarder -- --help=md), after changing app/control/fwd_opts.c.
# unit-opts fails until the table is current.
#   scripts/update-docs.sh [BUILDDIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/app/dpdk-forwarder
table=$("$bin" -- --help=md)
TABLE=$table /usr/bin/python3 - docs/user-guide.md <<'PY'
import os, sys
path = sys.argv[1]
text = open(path).read()
begin = text.index('\n', text.index('<!-- options: generated')) + 1
end = text.index('<!-- end of options -->')
open(path, 'w').write(text[:begin] + os.environ['TABLE'] + '\n' + text[end:])
PY
echo "update-docs: docs/user-guide.md's option table is current"
