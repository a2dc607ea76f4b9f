# API and worker image (one image, two commands). Built by docker-compose.yml.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# `cli listen` verifies deliveries with the TypeScript receiver library.
COPY receivers/typescript/src ./receivers/typescript/src
COPY data ./data
# Temporal's native bridge ships a binary for every platform: keep only the one this
# platform loads, named by the bridge's own loader.
RUN npm run build && npm prune --omit=dev \
 && target="$(node -p "require('@temporalio/core-bridge/common').getPrebuiltTargetName()")" \
 && test -f "node_modules/@temporalio/core-bridge/releases/$target/index.node" \
 && find node_modules/@temporalio/core-bridge/releases -mindepth 1 -maxdepth 1 ! -name "$target" -exec rm -rf {} +

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
# The dashboard reads its CSS and script from the repository's src/ (PROJECT_ROOT), not from dist/.
COPY --from=build /app/src/transport/http/dashboard/assets ./src/transport/http/dashboard/assets
USER node
EXPOSE 3000
CMD ["node", "dist/src/main/api.js"]
