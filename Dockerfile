FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
# A regular install: templates, static files and migrations ship inside the package.
RUN pip install --no-cache-dir . && rm -rf src
EXPOSE 8000
CMD ["duelclub", "serve", "--host", "0.0.0.0", "--port", "8000"]
