# One image for the three services; docker-compose.yml picks the entry point of each.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY nest-cli.json tsconfig.base.json tsconfig.json ./
COPY scripts ./scripts
COPY libs ./libs
COPY apps ./apps
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Shared files (a volume in docker-compose.yml) belong to the user the services run as.
# The secrets-keys volume too (docker-compose.yml): its service writes the key as that user.
RUN mkdir -p /data/files /run/chat-keys && chown node:node /data/files /run/chat-keys
USER node
# Overridden per service by docker-compose.yml.
CMD ["node", "dist/apps/gateway/apps/gateway/src/main.js"]
