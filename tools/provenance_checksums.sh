#!/usr/bin/env bash
# Rewrites the "## Checksums" table of data/PROVENANCE.md from the files now under data/.
set -euo pipefail
cd "$(dirname "$0")/../data"
{
  sed '/^## Checksums$/q' PROVENANCE.md
  echo
  echo "| file | sha256 |"
  echo "| --- | --- |"
  find . -type f ! -name "PROVENANCE.md*" | sed 's|^\./||' | LC_ALL=C sort | while read -r file; do
    echo "| \`$file\` | \`$(sha256sum "$file" | cut -d' ' -f1)\` |"
  done
} > PROVENANCE.md.tmp
mv PROVENANCE.md.tmp PROVENANCE.md
