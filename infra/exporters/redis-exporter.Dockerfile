# A STAND-IN for the official Redis exporter image (oliver006/redis_exporter), for machines that
# cannot pull it: Debian's `prometheus-redis-exporter` package (1.45) laid out like the official
# image, so docker-compose.yml runs unchanged on either. It is not the official image and not the
# version its tag names; where a registry is reachable, pull the real one instead.
# build-standin-images.sh builds it (legacy builder, no context needed).
FROM debian:bookworm-slim
LABEL org.opencontainers.image.title="Redis exporter (stand-in)" \
      org.opencontainers.image.description="Stand-in for oliver006/redis_exporter built from Debian's prometheus-redis-exporter package; not the official image"

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus-redis-exporter \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s /usr/bin/prometheus-redis-exporter /redis_exporter \
 && test -x /redis_exporter

# The official image's layout: the binary at /redis_exporter as the entrypoint with no arguments
# (REDIS_ADDR, default redis://localhost:6379; listens on :9121), run as 59000:59000.
USER 59000:59000
EXPOSE 9121
ENTRYPOINT ["/redis_exporter"]
