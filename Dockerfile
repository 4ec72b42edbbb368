# One image for the four apps (decisions §19): docker run IMAGE api|redirect|ingest|worker,
# plus `migrate` (apply migrations, then exit) and `cli …` (the operator CLI).
# The apps run their TypeScript through SWC at load (tools/scripts/run.js), so the
# image ships sources and production dependencies only.

# ---- build: every dependency, the Prisma client and the dashboard (dist/dashboard)
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run db:generate && npm run build:dashboard

# ---- prod-deps: runtime dependencies only
FROM node:22-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime
FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/tsconfig.base.json /app/prisma.config.ts /app/swc.config.js ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/libs ./libs
COPY --from=build /app/apps ./apps
COPY --from=build /app/tools ./tools
COPY --from=build /app/dist/dashboard ./dist/dashboard
# The SWC cache, filled here (no process transpiles, nor keeps SWC's ~40 MB, at its first start),
# and the apps' local directories (mail outbox, click fallback) belong to the app user.
RUN mkdir -p node_modules/.cache var \
 && node tools/scripts/warm-ts-cache.js \
 && chown -R node:node node_modules/.cache var
USER node
EXPOSE 3000 3001 3002 3003
HEALTHCHECK --interval=10s --timeout=3s --retries=6 \
  CMD ["node", "tools/scripts/healthcheck.js"]
# The entry starts each app with its runtime profile (tools/scripts/runtime-profile.js).
ENTRYPOINT ["node", "tools/scripts/container.js"]
CMD ["api"]
