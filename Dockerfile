FROM python:3.11-slim
WORKDIR /srv/arena
COPY pyproject.toml README.md ./
COPY app ./app
COPY engine ./engine
COPY tools ./tools
COPY migrations ./migrations
COPY alembic.ini ./
COPY frontend ./frontend
COPY docs ./docs
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--timeout-graceful-shutdown", "10"]
