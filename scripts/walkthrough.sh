#!/usr/bin/env bash
# The README's tour, runnable: bash scripts/walkthrough.sh (a test runs it against a booted service).
# Needs curl and node. BASE, CLIENT_ID and CLIENT_SECRET default to a local `npm start`. A failing step stops it
# with a non-zero exit: every call's output goes through a variable (a substitution inside echo would hide its failure).
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:3000/api}
CLIENT_ID=${CLIENT_ID:-1001}
CLIENT_SECRET=${CLIENT_SECRET:-dev-secret-change-me}
RUN=${RUN:-$(date +%s)}              # makes store, product and order ids unique per run
# json '.a.b': the value at that path of the JSON on stdin (strings raw, anything else as JSON)
json() { node -e 'const v=new Function("v","return v"+process.argv[1])(JSON.parse(require("fs").readFileSync(0,"utf8")));console.log(typeof v==="string"?v:JSON.stringify(v))' "$1"; }
call() { curl -sS --fail-with-body "$@"; }

# 1. A bearer token (client credentials)
TOKEN=$(call -X POST "$BASE/authentication/login" -H 'content-type: application/json' \
  -d "{\"client_id\":\"$CLIENT_ID\",\"client_secret\":\"$CLIENT_SECRET\",\"grant_type\":\"client_credentials\"}" | json .accessToken)
AUTH="authorization: Bearer $TOKEN"
echo "1. token: ${TOKEN:0:16}…"

# 2. A fiscal group for the store: its tax matrix maps NCM codes to tax rules
GROUP_ID=$(call -X POST "$BASE/admin/fiscal-groups" -H "$AUTH" -H 'content-type: application/json' -d '{
  "name": "Restaurants SP", "uf": "SP", "taxRegime": "LUCRO_PRESUMIDO",
  "stores": [{ "store_id": "store-'"$RUN"'", "store_name": "Burger House Paulista" }],
  "taxMatrix": {
    "21069090": { "NCM": "21069090", "CEST": "", "CST_ICMS": "00", "ICMS_rate": 18,
                  "CST_PIS": "01", "PIS_rate": 0.65, "CST_COFINS": "01", "COFINS_rate": 3, "CFOP": "5102" },
    "22021000": { "NCM": "22021000", "CEST": "0300700", "CST_ICMS": "60", "ICMS_rate": 18,
                  "CST_PIS": "04", "PIS_rate": 0.65, "CST_COFINS": "04", "COFINS_rate": 3, "CFOP": "5405" }
  }
}' | json .id)
echo "2. fiscal group: $GROUP_ID"

# 3. Product fiscal categories give each product its NCM
call -X POST "$BASE/admin/product-fiscal-categories" -H "$AUTH" -H 'content-type: application/json' \
  -d '{"productId":"burger-'"$RUN"'","productName":"Classic burger","ncm":"21069090"}' > /dev/null
call -X POST "$BASE/admin/product-fiscal-categories" -H "$AUTH" -H 'content-type: application/json' \
  -d '{"productId":"cola-'"$RUN"'","productName":"Cola can 350 ml","ncm":"22021000","externalProductId":"SKU-COLA-'"$RUN"'"}' > /dev/null
echo "3. product categories: burger-$RUN (21069090), cola-$RUN (22021000, SKU-COLA-$RUN)"

# 4. Enrich an order: taxes per line, stored by orderId
ORDER='{
  "orderId": "ORD-'"$RUN"'", "source": "ifood", "store": { "id": "store-'"$RUN"'" },
  "order": { "type": "PICKUP", "products": [
    { "productId": "burger-'"$RUN"'", "quantity": 1, "price": { "totalPrice": { "total": 25.90 } } },
    { "productId": "SKU-COLA-'"$RUN"'", "quantity": 2, "price": { "totalPrice": { "total": 13.00 } } }
  ] }
}'
ENRICHED=$(call -X POST "$BASE/enrich-order" -H "$AUTH" -H 'content-type: application/json' -d "$ORDER")
BURGER_TAX=$(echo "$ENRICHED" | json '.payload.order.products[0].tax.total_tax')
echo "4. burger tax: $BURGER_TAX (ICMS 25.90 × 18 % = 4.66; PIS/COFINS on 21.24: 0.14 + 0.64)"
TOTALS=$(echo "$ENRICHED" | json '.payload.taxSummary.totals')
echo "   totals: $TOTALS"

# 5. Find it in the admin list (substring of orderId, case-insensitive)
LISTED=$(call "$BASE/admin/orders?orderId=ord-$RUN&pageSize=5" -H "$AUTH" | json '.items.map(o => o.orderId + " " + o.status).join(", ")')
echo "5. listed: $LISTED"

# 6. Forward it to the restaurant's systems (ORDER_WEBHOOK_URL)
FORWARDED=$(call -X POST "$BASE/enrich-order-forward" -H "$AUTH" -H 'content-type: application/json' -d "$ORDER" | json .message)
echo "6. forward: $FORWARDED"

# 7. The store accepts it (order fulfillment)
STATUS=$(call -X POST "$BASE/api/order/status" -H "$AUTH" -H 'content-type: application/json' \
  -d '{"order_id":"ORD-'"$RUN"'","status":"ACCEPTED"}' | json .orderStatus)
echo "7. status: $STATUS"

# 8. Its history
HISTORY=$(call "$BASE/admin/orders/ORD-$RUN" -H "$AUTH" | json '.history.map(h => h.status).join(" → ")')
echo "8. history: $HISTORY"

# 9. The invoice's items (the NFC-e's det elements and total, PL_010_V1.30) as XML, ready for the emitter
NFE=$(call "$BASE/orders/ORD-$RUN/nfe?model=65" -H "$AUTH" -H 'accept: application/xml')
VNF=$(echo "$NFE" | grep -o '<vNF>[^<]*</vNF>')
echo "9. nfe: $(echo "$NFE" | grep -o '<det ' | wc -l | tr -d ' ') items, $VNF"
