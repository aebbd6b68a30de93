FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY src ./src
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
# Editable install: templates/ and static/ are found next to pyproject.toml.
RUN pip install --no-cache-dir -e .
EXPOSE 8000
CMD ["duelclub", "serve", "--host", "0.0.0.0", "--port", "8000"]
