#!/usr/bin/env bash
# What a script writer does without the CLI: for each row of a grant CSV
# (student id,product id), ask whether the student has the product and grant it
# if not: the same two requests per row as `members students grant --file`.
# Usage: curl-loop.sh FILE   (MEMBERS_BASE_URL, MEMBERS_TOKEN in the environment)
set -euo pipefail
today=$(date +%F)
tail -n +2 "$1" | while IFS=, read -r student product; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $MEMBERS_TOKEN" -H 'Accept: application/json' \
    "$MEMBERS_BASE_URL/api/v1/students/$student/products/$product")
  if [ "$code" = 404 ]; then
    curl -sf -o /dev/null -X POST -H "Authorization: Bearer $MEMBERS_TOKEN" -H 'Accept: application/json' \
      -H 'Content-Type: application/json' -d "{\"product_id\":\"$product\",\"accession_date\":\"$today\"}" \
      "$MEMBERS_BASE_URL/api/v1/students/$student/products"
  fi
done
