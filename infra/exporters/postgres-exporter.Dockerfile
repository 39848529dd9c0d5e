# A STAND-IN for the official PostgreSQL exporter image
# (quay.io/prometheuscommunity/postgres-exporter), for machines that cannot pull it: Debian's
# `prometheus-postgres-exporter` package (0.11) laid out like the official image, so
# docker-compose.yml runs unchanged on either. It is not the official image and not the version
# its tag names; where a registry is reachable, pull the real one instead.
# build-standin-images.sh builds it (legacy builder, no context needed).
FROM debian:bookworm-slim
LABEL org.opencontainers.image.title="PostgreSQL Prometheus exporter (stand-in)" \
      org.opencontainers.image.description="Stand-in for quay.io/prometheuscommunity/postgres-exporter built from Debian's prometheus-postgres-exporter package; not the official image"

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus-postgres-exporter \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s prometheus-postgres-exporter /usr/bin/postgres_exporter \
 && test -x /bin/postgres_exporter

# The official image's layout: the binary at /bin/postgres_exporter (bookworm's /bin is /usr/bin)
# as the entrypoint with no arguments (DATA_SOURCE_NAME, or DATA_SOURCE_URI with
# DATA_SOURCE_USER and DATA_SOURCE_PASS or DATA_SOURCE_PASS_FILE; listens on :9187), run as nobody.
USER nobody
EXPOSE 9187
ENTRYPOINT ["/bin/postgres_exporter"]
