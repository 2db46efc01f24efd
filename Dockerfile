# syntax=docker/dockerfile:1
# Sluice's container image: the gateway built from this tree with the Maven wrapper, run on a
# JRE as a non-root user. docs/deploy.md, "Docker", has the commands.
#
#   docker build -t sluice .
#   docker run -p 4000:4000 -v "$PWD/deploy/config.yaml:/app/config.yaml:ro" \
#     -e LITELLM_MASTER_KEY=sk-1234 -e OPENAI_API_KEY -e ANTHROPIC_API_KEY \
#     -e REDIS_HOST=redis -e REDIS_PORT=6379 sluice

FROM eclipse-temurin:25-jdk AS build
WORKDIR /build
# The wrapper and the pom alone first: the dependency layer below is built again only when
# they change, not on every source edit.
COPY mvnw pom.xml ./
COPY .mvn .mvn
RUN ./mvnw -q -B dependency:go-offline
COPY src src
RUN ./mvnw -q -B -DskipTests package

FROM eclipse-temurin:25-jre
# A numeric user, so that Kubernetes' runAsNonRoot can check it without reading /etc/passwd.
# /app/sluice-data holds the embedded store (store_path's default, sluice-data/sluice, is
# relative to the working directory) and the spend journal, with or without PostgreSQL.
RUN groupadd --system --gid 10001 sluice \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home sluice \
    && mkdir -p /app/sluice-data \
    && chown 10001:10001 /app/sluice-data
WORKDIR /app
COPY --from=build /build/target/sluice.jar /app/sluice.jar
USER 10001:10001
VOLUME ["/app/sluice-data"]
EXPOSE 4000
# The image has bash but neither curl nor wget for certain: bash's /dev/tcp sends the request,
# to the port the gateway reads from PORT as well (4000 unless set).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-4000} && printf 'GET /health/liveliness HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# The jar's launcher replaces itself (execve) with a JVM sized to the gateway, so the
# gateway is PID 1 and gets docker stop's SIGTERM itself. SLUICE_JAVA_OPTS changes the sizing.
ENTRYPOINT ["java", "-jar", "/app/sluice.jar"]
# The config is mounted here; `docker run ... sluice --port 4000` (no --config) runs the demo.
CMD ["--config", "/app/config.yaml"]
