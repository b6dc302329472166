# Seega for Discord: one small image that runs the bot (or the console table, or `sync`).
#   docker build -t seega-bot .
#   docker run -d --name seega --restart unless-stopped --env-file .env -v seega-data:/data seega-bot
#   docker run --rm --env-file .env seega-bot sync          # publish the slash commands
#   docker run --rm -it -v seega-data:/data seega-bot --console
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Pillow's wheels bring raqm for Arabic text shaping; it needs FriBiDi from the system.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 sqlite3 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY fonts ./fonts
# Editable install: the renderer finds the bundled fonts in /app/fonts beside the package.
RUN pip install -e . \
    && useradd --create-home --uid 10001 seega \
    && mkdir /data && chown seega:seega /data

USER seega
# The database lives on a volume: back it up from there (docs/deploy.md). The working
# directory is the volume too, so a relative SEEGA_DB (say `seega.db` from an env file)
# still lands in /data, owned by this user, and never in /app (owned by root).
ENV SEEGA_DB=/data/seega.db
VOLUME ["/data"]
WORKDIR /data

ENTRYPOINT ["seega-bot"]
CMD ["run"]
