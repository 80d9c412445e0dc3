# One image for the Slack bot and its workers: `fonte bot` or `fonte worker`.
FROM python:3.11-slim

# WeasyPrint (PDF reports) needs Pango; Tesseract with its Portuguese and English data reads
# scanned PDF pages (engine/documents/ocr.py) and every cited PDF region for the seen check
# (engine/verify/seen/pdf_seer.py); Chromium renders HTML pages for it
# (engine/verify/seen/browser_seer.py, through Playwright, whose own browser download is never
# used) and LibreOffice renders Word, PowerPoint and Excel files (engine/verify/seen/office.py);
# without them a claim on such a page is not published. curl is not needed: health checks use
# Python.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 \
        tesseract-ocr tesseract-ocr-por tesseract-ocr-eng chromium fonts-dejavu-core \
        libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY evals ./evals
RUN pip install --no-cache-dir ".[slack,postgres]"

RUN useradd --create-home --uid 10001 fonte \
    && mkdir -p /library /cache \
    && chown fonte:fonte /cache
USER fonte

ENV PYTHONUNBUFFERED=1 \
    FONTE_CACHE_DIR=/cache \
    FONTE_LIBRARY=/library \
    FONTE_ROLE=bot

# The bot answers on /healthz; a worker checks that its arq heartbeat is fresh in Redis.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD fonte "$FONTE_ROLE" --check || exit 1

CMD ["fonte", "bot"]
