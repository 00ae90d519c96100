# syntax=docker/dockerfile:1

# Node 24 LTS runs the image; Node 22 LTS is the oldest version the service supports (CI runs the suite on both).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
# The admin console (vite) is built into dist/console beside the service, which serves it at /console/.
COPY clients ./clients
COPY console ./console
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
# No dev tools, no embedded PostgreSQL (optional: production uses DATABASE_URL), no TypeScript (an optional peer).
RUN npm ci --omit=dev --omit=optional --omit=peer && npm cache clean --force
COPY --from=build /app/dist ./dist
# The CLI as a command of the image, without rebuilding: `docker compose run --rm api-1 order-tax-cli clients:create ...`
RUN chmod +x dist/src/cli/main.js && ln -s /app/dist/src/cli/main.js /usr/local/bin/order-tax-cli
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# In production DATABASE_URL and JWT_SECRET are required (the embedded database is for development).
# A larger young generation: each order in flight holds its JSON while PostgreSQL works, and a scavenge
# promotes what is alive; fewer scavenges promote less. No allocation-site pretenuring: under steady load V8
# came to allocate some of every request's objects in the old generation, which then kept the rest of the
# request alive through the young generation's collections. No Maglev (Node 22 and later turn it on): on
# Node 24 its code kept every request's objects alive the same way (docs/performance.md).
CMD ["node", "--max-semi-space-size=128", "--no-allocation-site-pretenuring", "--no-maglev", "dist/src/main.js"]
