FROM python:3.11-slim
WORKDIR /app
# The exact dependency versions of the lock first (a layer rebuilt only when the lock changes), then duelclub
# itself as a regular install: templates, static files and migrations ship inside the package.
COPY requirements/run.lock ./requirements/run.lock
RUN pip install --no-cache-dir -r requirements/run.lock
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir . && rm -rf src build requirements
# The data directory (SQLite database and generated secret when DATABASE_URL/SECRET_KEY are unset; the bot
# workers' metrics files) is a volume, owned by the unprivileged user the server runs as.
RUN useradd --system --home-dir /nonexistent --no-create-home duelclub \
    && mkdir /data && chown duelclub:duelclub /data
ENV DATA_DIR=/data
VOLUME /data
USER duelclub
EXPOSE 8000
CMD ["duelclub", "serve", "--host", "0.0.0.0", "--port", "8000"]
