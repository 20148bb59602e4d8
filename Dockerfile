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
# --ws: the room sockets' protocol (app/realtime/edge.py; without it every socket is refused).
# --ws-max-size: frames above 64 KiB are refused before they are read (the app refuses > 16 KiB).
# --ws-per-message-deflate false: no zlib state per browser socket (≈ 50 KB each; frames are
# ≈ 1 KB: bench/HISTORY.md §4).
# X-Forwarded-For is trusted only from the proxies listed in ARENA_FORWARDED_ALLOW_IPS (empty by
# default: nobody), so the per-address limits cannot be bypassed (docs/security.md).
ENV ARENA_FORWARDED_ALLOW_IPS=""
CMD if [ -n "$ARENA_FORWARDED_ALLOW_IPS" ]; then \
        set -- --proxy-headers --forwarded-allow-ips "$ARENA_FORWARDED_ALLOW_IPS"; \
    else set -- --no-proxy-headers; fi; \
    exec uvicorn app.main:app --host 0.0.0.0 --port 8000 --timeout-graceful-shutdown 10 \
        --ws app.realtime.edge:RoomSocketProtocol --ws-max-size 65536 \
        --ws-per-message-deflate false "$@"
