#!/usr/bin/env bash
# One row of curl-loop.sh, for `xargs -P 8`: curl-row.sh STUDENT,PRODUCT
set -euo pipefail
IFS=, read -r student product <<< "$1"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $MEMBERS_TOKEN" -H 'Accept: application/json' \
  "$MEMBERS_BASE_URL/api/v1/students/$student/products/$product")
if [ "$code" = 404 ]; then
  curl -sf -o /dev/null -X POST -H "Authorization: Bearer $MEMBERS_TOKEN" -H 'Accept: application/json' \
    -H 'Content-Type: application/json' -d "{\"product_id\":\"$product\",\"accession_date\":\"$(date +%F)\"}" \
    "$MEMBERS_BASE_URL/api/v1/students/$student/products"
fi
