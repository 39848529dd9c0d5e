# A STAND-IN for the official NGINX exporter image (nginx/nginx-prometheus-exporter), for
# machines that cannot pull it: Debian's `prometheus-nginx-exporter` package (0.11) laid out like
# the official image, so docker-compose.yml runs unchanged on either. It is not the official image
# and not the version its tag names; where a registry is reachable, pull the real one instead.
# build-standin-images.sh builds it (legacy builder, no context needed).
FROM debian:bookworm-slim
LABEL org.opencontainers.image.title="NGINX Prometheus exporter (stand-in)" \
      org.opencontainers.image.description="Stand-in for nginx/nginx-prometheus-exporter built from Debian's prometheus-nginx-exporter package; not the official image"

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus-nginx-exporter \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s prometheus-nginx-exporter /usr/bin/nginx-prometheus-exporter \
 && test -x /usr/bin/nginx-prometheus-exporter

# The official image's layout: the binary at /usr/bin/nginx-prometheus-exporter as the entrypoint
# with no arguments (it scrapes http://127.0.0.1:8080/stub_status and listens on :9113 unless
# told otherwise), run as 1001:1001. Both versions take --nginx.scrape-uri=<url>.
USER 1001:1001
EXPOSE 9113
ENTRYPOINT ["/usr/bin/nginx-prometheus-exporter"]
