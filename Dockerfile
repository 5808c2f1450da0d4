# intrabot in a container (not built on the development machines, which run no container engine).
# One process: the runtime. Configure tenants with INTRABOT_BASE_URL/INTRABOT_TOKEN or an
# intrabot.yaml mounted at /app/intrabot.yaml; keep /app/.intrabot on a volume (SQLite store), or set
# INTRABOT_REDIS_URL to run several replicas behind a load balancer.
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 builds its native module when no prebuilt binary matches
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY src ./src
# the example bots (example: true): in connected mode none deploys unless named in INTRABOT_BOTS
COPY bots ./bots
COPY templates ./templates
COPY bin ./bin
# the CLI runs from a build of src/ (bin/build.mjs); made here so a container starts without building
RUN node bin/build.mjs
ENV INTRABOT_HOST=0.0.0.0 INTRABOT_PORT=3000 INTRABOT_LOG_FORMAT=json NODE_ENV=production
EXPOSE 3000
VOLUME ["/app/.intrabot"]
# healthy = ready to do its job (/readyz: bots loaded and provisioned, store answering), not merely alive
# (/healthz); the start period covers provisioning and INTRABOT_START_WAIT's retries of a platform that is down
HEALTHCHECK --interval=30s --timeout=3s --start-period=90s CMD node -e "fetch('http://127.0.0.1:'+(process.env.INTRABOT_PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--max-semi-space-size=8", "--v8-pool-size=1", "--expose-gc", "bin/intrabot.mjs", "start"]
